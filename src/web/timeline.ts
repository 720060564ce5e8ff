/**
 * A job's transcript as a page: entries fold into steps of items (turns, text, tool calls, usage,
 * notes). The same builder renders the whole page and, entry by entry, the live updates (ops the
 * page's script applies: append a fragment under an element, or replace one). How steps and items
 * look is `timeline-html.ts`.
 */
import { addUsage, emptyUsage, type Usage } from "../agent/pricing.js";
import { formatCost, formatDuration, formatTokens, totalTokens } from "../report/format.js";
import type { StoredEntry } from "../transcripts/types.js";
import { esc } from "./html.js";
import { renderItem, renderStep, renderStepHead, type Body, type Item, type Step } from "./timeline-html.js";

export type Op = { op: "append"; parent: string; html: string } | { op: "replace"; id: string; html: string };

type Entry<T extends StoredEntry["type"]> = Extract<StoredEntry, { type: T }>;

/** What the job header shows besides the transcript's own facts. */
export interface JobHead {
  id: string;
  state: string;
  kind: string;
  repo: string;
  number: number;
  isPullRequest: boolean;
  sender: string;
  request: string;
  title?: string;
  /** The issue or PR on GitHub. */
  url: string;
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  outcome?: string;
}

export class Timeline {
  readonly steps: Step[] = [];
  chain?: Body<"chain_start">;
  end?: Body<"job_end"> & { at: number };
  firstAt?: number;
  lastAt?: number;
  lastSeq = 0;
  usage: Usage = emptyUsage();
  costUsd = 0;
  estimate = false;
  private readonly tools = new Map<string, { step: Step; item: Extract<Item, { kind: "tool" }> }>();
  /** The parallel item of the entry being applied: its events go to that item's lane. */
  private entryItem?: number;

  constructor(
    private head: JobHead,
    /** Where the job's artifacts are served: `/jobs/<id>/artifacts/`. */
    private readonly artifactBase: string,
  ) {}

  setHead(head: JobHead): void {
    this.head = head;
  }

  /** Takes one entry; returns what changed on the page. */
  apply(entry: StoredEntry): Op[] {
    this.lastSeq = Math.max(this.lastSeq, entry.seq);
    this.firstAt ??= entry.at;
    this.lastAt = entry.at;
    const ops: Op[] = [];
    this.entryItem = "item" in entry ? entry.item : undefined;
    // The map holds each kind's handler for its own entry type; TypeScript cannot pair them up.
    (this.handlers[entry.type] as (entry: StoredEntry, ops: Op[], dom: string) => void)(entry, ops, `e${entry.seq}`);
    return ops;
  }

  /** One handler per entry kind: what the entry changes, with the page ops for it pushed on `ops`. */
  private readonly handlers: { [K in StoredEntry["type"]]: (entry: Entry<K>, ops: Op[], dom: string) => void } = {
    job_start: (entry, ops) => {
      this.head = { ...this.head, request: entry.request || this.head.request, title: entry.title ?? this.head.title };
      ops.push(this.headOp());
    },
    job_end: (entry, ops) => {
      this.end = entry;
      ops.push(this.headOp());
    },
    chain_start: (entry, ops) => {
      this.chain = entry;
      ops.push(this.headOp());
    },
    step_start: (entry, ops) => {
      const step: Step = { dom: `s${entry.seq}`, index: entry.index, agent: entry.agent, items: [], usage: emptyUsage(), costUsd: 0, estimate: false, ended: false };
      if (entry.items) step.lanes = entry.items.map((it, k) => newLane(step, k + 1, it.agent, it.task));
      this.steps.push(step);
      ops.push({ op: "append", parent: "steps", html: renderStep(step, this.artifactBase) });
    },
    step_end: (entry, ops, dom) => {
      const step = this.current(entry.agent, ops, entry.seq);
      step.ended = true;
      step.stopReason = entry.stopReason;
      ops.push(this.stepHeadOp(step));
      for (const lane of (step.lanes ?? []).filter((l) => !l.ended)) {
        lane.ended = true;
        ops.push(this.stepHeadOp(lane));
      }
      if (entry.output) ops.push(this.add(step, { kind: "result", dom, output: entry.output }));
    },
    run_start: (entry, ops) => {
      const step = this.current(entry.agent, ops, entry.seq);
      step.model = entry.model;
      ops.push(this.stepHeadOp(step));
    },
    run_end: (entry, ops, dom) => {
      const step = this.current(entry.agent, ops, entry.seq);
      const why = entry.stopReason === "budget" && entry.budget ? `budget ${entry.budget}` : entry.stopReason;
      const message = `run ended: ${why}${entry.error ? ` — ${entry.error}` : ""}`;
      if (step.parent) {
        step.ended = true;
        step.stopReason = entry.stopReason;
        ops.push(this.stepHeadOp(step));
      }
      ops.push(this.add(step, { kind: "note", dom, level: entry.stopReason === "error" ? "warn" : "info", message }));
    },
    turn_start: (entry, ops, dom) => {
      ops.push(this.add(this.current(entry.agent, ops, entry.seq), { kind: "turn", dom, turn: entry.turn }));
    },
    turn_end: () => {},
    text: (entry, ops, dom) => {
      const step = this.current(entry.agent, ops, entry.seq);
      const last = step.items[step.items.length - 1];
      if (last?.kind === "text") {
        last.text += entry.text;
        ops.push({ op: "replace", id: last.dom, html: renderItem(last, this.artifactBase) });
      } else {
        ops.push(this.add(step, { kind: "text", dom, text: entry.text }));
      }
    },
    tool_start: (entry, ops, dom) => {
      const step = this.current(entry.agent, ops, entry.seq);
      const item = { kind: "tool" as const, dom, start: entry };
      this.tools.set(entry.id, { step, item });
      ops.push(this.add(step, item));
    },
    tool_end: (entry, ops, dom) => {
      const known = this.tools.get(entry.id);
      if (known) {
        known.item.end = entry;
        ops.push({ op: "replace", id: known.item.dom, html: renderItem(known.item, this.artifactBase) });
      } else {
        const start: Body<"tool_start"> = { type: "tool_start", agent: entry.agent, id: entry.id, name: entry.name, args: "" };
        ops.push(this.add(this.current(entry.agent, ops, entry.seq), { kind: "tool", dom, start, end: entry }));
      }
    },
    usage: (entry, ops, dom) => {
      const step = this.current(entry.agent, ops, entry.seq);
      addCost(step, entry);
      if (step.parent) {
        addCost(step.parent, entry);
        ops.push(this.stepHeadOp(step.parent));
      }
      addCost(this, entry);
      ops.push(this.add(step, { kind: "usage", dom, usage: entry.usage, costUsd: entry.costUsd, estimate: entry.estimate }));
      ops.push(this.stepHeadOp(step), this.headOp());
    },
    compaction: (entry, ops, dom) => {
      const message = `context ${entry.kind === "summary" ? "summarised" : "pruned"} at ${formatTokens(entry.beforeTokens)} tokens`;
      ops.push(this.add(this.current(entry.agent, ops, entry.seq), { kind: "note", dom, level: "info", message }));
    },
    model_wait: (entry, ops, dom) => {
      const message = `waiting for the model (${entry.reason}); try ${entry.attempt + 1} in ${formatDuration(entry.waitMs)}`;
      ops.push(this.add(this.current(entry.agent, ops, entry.seq), { kind: "note", dom, level: "warn", message }));
    },
    rule_interrupt: (entry, ops, dom) => {
      const message = `rule ${entry.rule} stopped the reply of turn ${entry.turn}: the text above was dropped (~${formatTokens(entry.droppedTokens)} output tokens, ${formatCost(entry.costUsd, true)}) and the rule sent to the model`;
      ops.push(this.add(this.current(entry.agent, ops, entry.seq), { kind: "note", dom, level: "warn", message }));
    },
    visibility: () => {},
    log: (entry, ops, dom) => {
      ops.push(this.add(this.current(entry.agent ?? "job", ops, entry.seq), { kind: "note", dom, level: entry.level, message: entry.message }));
    },
  };

  /** Where an agent's event goes: its step, or within a parallel step its item's lane. */
  private current(agent: string, ops: Op[], seq: number): Step {
    const step = this.stepOf(agent, ops, seq);
    return this.entryItem === undefined ? step : this.laneOf(step, this.entryItem, agent, ops);
  }

  /** A parallel item's lane; one the step did not announce (no `items`) is added, and the step redrawn with it. */
  private laneOf(step: Step, item: number, agent: string, ops: Op[]): Step {
    const found = step.lanes?.find((l) => l.item === item);
    if (found) return found;
    const lane = newLane(step, item, agent);
    step.lanes = [...(step.lanes ?? []), lane].sort((a, b) => a.item! - b.item!);
    ops.push({ op: "replace", id: step.dom, html: renderStep(step, this.artifactBase) });
    return lane;
  }

  /** The step an agent's event belongs to: the open one, or a new one without a chain step. */
  private stepOf(agent: string, ops: Op[], seq: number): Step {
    const last = this.steps[this.steps.length - 1];
    if (last && (!last.ended || last.agent === agent)) return last;
    const step: Step = { dom: `s${seq}`, agent, items: [], usage: emptyUsage(), costUsd: 0, estimate: false, ended: false };
    this.steps.push(step);
    ops.push({ op: "append", parent: "steps", html: renderStep(step, this.artifactBase) });
    return step;
  }

  private add(step: Step, item: Item): Op {
    step.items.push(item);
    return { op: "append", parent: `${step.dom}-i`, html: renderItem(item, this.artifactBase) };
  }

  private stepHeadOp(step: Step): Op {
    return { op: "replace", id: `${step.dom}-h`, html: renderStepHead(step) };
  }

  headOp(): Op {
    return { op: "replace", id: "job-head", html: this.renderHead() };
  }

  /** The terminal state as the queue knows it, for a job that ended without a transcript end. */
  get ended(): boolean {
    return this.end !== undefined || ["succeeded", "failed", "cancelled"].includes(this.head.state);
  }

  renderHead(): string {
    const h = this.head;
    const outcome = this.end?.outcome ?? h.outcome;
    const state = this.end ? stateOfTerminal(this.end.terminal) : h.state;
    const started = h.startedAt ?? this.firstAt;
    const finished = this.end?.at ?? h.finishedAt;
    const duration = started !== undefined ? formatDuration((finished ?? this.lastAt ?? started) - started) : undefined;
    const chain = this.chain ? `<div><span class="muted">chain</span> ${esc(this.chain.chain)}: ${this.chain.steps.map(esc).join(" → ")}</div>` : "";
    const figures = [
      duration && `${esc(duration)}`,
      `${esc(formatTokens(totalTokens(this.usage)))} tokens`,
      esc(formatCost(this.costUsd, this.estimate)),
    ].filter(Boolean);
    return `<section id="job-head" class="card">
<h1 style="font-size:1.25em;margin:0 0 .3em">${esc(h.kind)} · <a href="${esc(h.url)}">${esc(h.repo)}#${esc(h.number)}</a>${h.title ? ` <span class="muted">${esc(h.title)}</span>` : ""}</h1>
<div><span class="state state-${esc(state)}" data-state="${esc(state)}">${esc(state)}</span>${outcome ? ` · <span class="outcome">${esc(outcome)}</span>` : ""}</div>
<div><span class="muted">requested by</span> @${esc(h.sender)} <span class="muted">· job</span> <code>${esc(h.id)}</code></div>
${h.request ? `<pre class="request">${esc(h.request)}</pre>` : ""}${chain}
<div class="muted figures">${figures.join(" · ")}</div>
</section>`;
  }

  renderSteps(): string {
    return this.steps.map((s) => renderStep(s, this.artifactBase)).join("\n");
  }
}

function stateOfTerminal(terminal: Body<"job_end">["terminal"]): string {
  if (terminal === "done") return "succeeded";
  if (terminal === "cancelled") return "cancelled";
  return "failed";
}

function newLane(parent: Step, item: number, agent: string, task?: string): Step {
  return { dom: `${parent.dom}-l${item}`, parent, item, agent, ...(task !== undefined ? { task } : {}), items: [], usage: emptyUsage(), costUsd: 0, estimate: false, ended: false };
}

/** Adds a model call's tokens and cost to a step, a lane or the whole job. */
function addCost(to: { usage: Usage; costUsd: number; estimate: boolean }, entry: Entry<"usage">): void {
  to.usage = addUsage(to.usage, entry.usage);
  to.costUsd += entry.costUsd;
  to.estimate ||= entry.estimate;
}
