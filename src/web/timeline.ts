/**
 * A job's transcript as a page: entries fold into steps of items (turns, text, tool calls, usage,
 * notes). The same builder renders the whole page and, entry by entry, the live updates (ops the
 * page's script applies: append a fragment under an element, or replace one).
 */
import { addUsage, emptyUsage, type Usage } from "../agent/pricing.js";
import { formatCost, formatDuration, formatTokens, totalTokens } from "../report/format.js";
import type { StoredEntry, TranscriptBody } from "../transcripts/types.js";
import { LOCAL_PREFIX } from "../tools/paths.js";
import { scratchHref, scratchPathInArgs } from "./artifacts.js";
import { esc } from "./html.js";

export type Op = { op: "append"; parent: string; html: string } | { op: "replace"; id: string; html: string };

type Body<T extends TranscriptBody["type"]> = Extract<TranscriptBody, { type: T }>;

type Item =
  | { kind: "turn"; dom: string; turn: number }
  | { kind: "text"; dom: string; text: string }
  | { kind: "tool"; dom: string; start: Body<"tool_start">; end?: Body<"tool_end"> }
  | { kind: "usage"; dom: string; usage: Usage; costUsd: number; estimate: boolean }
  | { kind: "note"; dom: string; level: "info" | "warn"; message: string }
  | { kind: "result"; dom: string; output: string };

interface Step {
  dom: string;
  index?: number;
  agent: string;
  model?: string;
  items: Item[];
  usage: Usage;
  costUsd: number;
  estimate: boolean;
  stopReason?: string;
  ended: boolean;
  /** A parallel step's agents, one lane each with its own entries, in item order. */
  lanes?: Step[];
  /** Set on a lane: its step, its item number (1-based) and its task line. */
  parent?: Step;
  item?: number;
  task?: string;
}

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
    const dom = `e${entry.seq}`;
    this.entryItem = "item" in entry ? entry.item : undefined;
    switch (entry.type) {
      case "job_start":
        this.head = { ...this.head, request: entry.request || this.head.request, title: entry.title ?? this.head.title };
        ops.push(this.headOp());
        break;
      case "job_end":
        this.end = entry;
        ops.push(this.headOp());
        break;
      case "chain_start":
        this.chain = entry;
        ops.push(this.headOp());
        break;
      case "step_start": {
        const step: Step = { dom: `s${entry.seq}`, index: entry.index, agent: entry.agent, items: [], usage: emptyUsage(), costUsd: 0, estimate: false, ended: false };
        if (entry.items) step.lanes = entry.items.map((it, k) => newLane(step, k + 1, it.agent, it.task));
        this.steps.push(step);
        ops.push({ op: "append", parent: "steps", html: renderStep(step, this.artifactBase) });
        break;
      }
      case "step_end": {
        const step = this.current(entry.agent, ops, entry.seq);
        step.ended = true;
        step.stopReason = entry.stopReason;
        ops.push(this.stepHeadOp(step));
        for (const lane of (step.lanes ?? []).filter((l) => !l.ended)) {
          lane.ended = true;
          ops.push(this.stepHeadOp(lane));
        }
        if (entry.output) ops.push(this.add(step, { kind: "result", dom, output: entry.output }));
        break;
      }
      case "run_start": {
        const step = this.current(entry.agent, ops, entry.seq);
        step.model = entry.model;
        ops.push(this.stepHeadOp(step));
        break;
      }
      case "run_end": {
        const step = this.current(entry.agent, ops, entry.seq);
        const why = entry.stopReason === "budget" && entry.budget ? `budget ${entry.budget}` : entry.stopReason;
        const message = `run ended: ${why}${entry.error ? ` — ${entry.error}` : ""}`;
        if (step.parent) {
          step.ended = true;
          step.stopReason = entry.stopReason;
          ops.push(this.stepHeadOp(step));
        }
        ops.push(this.add(step, { kind: "note", dom, level: entry.stopReason === "error" ? "warn" : "info", message }));
        break;
      }
      case "turn_start":
        ops.push(this.add(this.current(entry.agent, ops, entry.seq), { kind: "turn", dom, turn: entry.turn }));
        break;
      case "turn_end":
        break;
      case "text": {
        const step = this.current(entry.agent, ops, entry.seq);
        const last = step.items[step.items.length - 1];
        if (last?.kind === "text") {
          last.text += entry.text;
          ops.push({ op: "replace", id: last.dom, html: renderItem(last, this.artifactBase) });
        } else {
          ops.push(this.add(step, { kind: "text", dom, text: entry.text }));
        }
        break;
      }
      case "tool_start": {
        const step = this.current(entry.agent, ops, entry.seq);
        const item = { kind: "tool" as const, dom, start: entry };
        this.tools.set(entry.id, { step, item });
        ops.push(this.add(step, item));
        break;
      }
      case "tool_end": {
        const known = this.tools.get(entry.id);
        if (known) {
          known.item.end = entry;
          ops.push({ op: "replace", id: known.item.dom, html: renderItem(known.item, this.artifactBase) });
        } else {
          const start: Body<"tool_start"> = { type: "tool_start", agent: entry.agent, id: entry.id, name: entry.name, args: "" };
          ops.push(this.add(this.current(entry.agent, ops, entry.seq), { kind: "tool", dom, start, end: entry }));
        }
        break;
      }
      case "usage": {
        const step = this.current(entry.agent, ops, entry.seq);
        step.usage = addUsage(step.usage, entry.usage);
        step.costUsd += entry.costUsd;
        step.estimate ||= entry.estimate;
        if (step.parent) {
          step.parent.usage = addUsage(step.parent.usage, entry.usage);
          step.parent.costUsd += entry.costUsd;
          step.parent.estimate ||= entry.estimate;
          ops.push(this.stepHeadOp(step.parent));
        }
        this.usage = addUsage(this.usage, entry.usage);
        this.costUsd += entry.costUsd;
        this.estimate ||= entry.estimate;
        ops.push(this.add(step, { kind: "usage", dom, usage: entry.usage, costUsd: entry.costUsd, estimate: entry.estimate }));
        ops.push(this.stepHeadOp(step), this.headOp());
        break;
      }
      case "compaction": {
        const message = `context ${entry.kind === "summary" ? "summarised" : "pruned"} at ${formatTokens(entry.beforeTokens)} tokens`;
        ops.push(this.add(this.current(entry.agent, ops, entry.seq), { kind: "note", dom, level: "info", message }));
        break;
      }
      case "model_wait": {
        const message = `waiting for the model (${entry.reason}); try ${entry.attempt + 1} in ${formatDuration(entry.waitMs)}`;
        ops.push(this.add(this.current(entry.agent, ops, entry.seq), { kind: "note", dom, level: "warn", message }));
        break;
      }
      case "rule_interrupt": {
        const message = `rule ${entry.rule} stopped the reply of turn ${entry.turn}: the text above was dropped (~${formatTokens(entry.droppedTokens)} output tokens, ${formatCost(entry.costUsd, true)}) and the rule sent to the model`;
        ops.push(this.add(this.current(entry.agent, ops, entry.seq), { kind: "note", dom, level: "warn", message }));
        break;
      }
      case "visibility":
        break;
      case "log":
        ops.push(this.add(this.current(entry.agent ?? "job", ops, entry.seq), { kind: "note", dom, level: entry.level, message: entry.message }));
        break;
    }
    return ops;
  }

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

function renderStep(step: Step, artifactBase: string): string {
  const lanes = step.lanes ? `\n<div class="lanes" id="${step.dom}-l">${step.lanes.map((l) => renderLane(l, artifactBase)).join("\n")}</div>` : "";
  return `<section id="${step.dom}" class="card step">${renderStepHead(step)}${lanes}
<ol class="items" id="${step.dom}-i">${step.items.map((i) => renderItem(i, artifactBase)).join("")}</ol></section>`;
}

function newLane(parent: Step, item: number, agent: string, task?: string): Step {
  return { dom: `${parent.dom}-l${item}`, parent, item, agent, ...(task !== undefined ? { task } : {}), items: [], usage: emptyUsage(), costUsd: 0, estimate: false, ended: false };
}

function renderLane(lane: Step, artifactBase: string): string {
  return `<section id="${lane.dom}" class="lane" data-agent="${esc(lane.agent)}" data-item="${esc(lane.item)}">${renderStepHead(lane)}
<ol class="items" id="${lane.dom}-i">${lane.items.map((i) => renderItem(i, artifactBase)).join("")}</ol></section>`;
}

function renderStepHead(step: Step): string {
  if (step.item !== undefined) return renderLaneHead(step);
  // The chain counts steps from 0; people from 1, as the progress comment does.
  const index = step.index !== undefined ? `Step ${esc(step.index + 1)} · ` : "";
  const model = step.model ? ` <span class="muted">${esc(step.model)}</span>` : "";
  const stop = step.stopReason ? ` · <span class="${step.stopReason === "done" ? "ok" : "err"}">${esc(step.stopReason)}</span>` : step.ended ? "" : ` · <span class="muted">running</span>`;
  const usage = `${esc(formatTokens(totalTokens(step.usage)))} tokens · ${esc(formatCost(step.costUsd, step.estimate))}`;
  return `<h2 id="${step.dom}-h" style="font-size:1.05em;margin:0 0 .3em">${index}${esc(step.agent)}${model}${stop} <span class="muted" style="font-weight:normal">· ${usage}</span></h2>`;
}

/** A parallel item's heading: its number, agent and task, then the same figures as a step's. */
function renderLaneHead(lane: Step): string {
  const model = lane.model ? ` <span class="muted">${esc(lane.model)}</span>` : "";
  const stop = lane.stopReason ? ` · <span class="${lane.stopReason === "done" ? "ok" : "err"}">${esc(lane.stopReason)}</span>` : lane.ended ? "" : ` · <span class="muted">running</span>`;
  const usage = `${esc(formatTokens(totalTokens(lane.usage)))} tokens · ${esc(formatCost(lane.costUsd, lane.estimate))}`;
  const task = lane.task ? `<span class="muted lane-task" style="display:block;font-weight:normal">${esc(lane.task)}</span>` : "";
  return `<h3 id="${lane.dom}-h" style="font-size:1em;margin:.2em 0">${esc(lane.item)}. ${esc(lane.agent)}${model}${stop} <span class="muted" style="font-weight:normal">· ${usage}</span>${task}</h3>`;
}

function renderItem(item: Item, artifactBase: string): string {
  switch (item.kind) {
    case "turn":
      return `<li id="${item.dom}" class="turn">Turn ${esc(item.turn)}</li>`;
    case "text":
      return `<li id="${item.dom}" class="text">${esc(item.text)}</li>`;
    case "usage": {
      const u = item.usage;
      return `<li id="${item.dom}" class="usage">${esc(formatTokens(u.input))} in · ${esc(formatTokens(u.output))} out · ${esc(formatTokens(u.cacheRead))} cache read · ${esc(formatTokens(u.cacheWrite))} cache write · ${esc(formatCost(item.costUsd, item.estimate))}</li>`;
    }
    case "note":
      return `<li id="${item.dom}" class="note ${item.level}">${esc(item.message)}</li>`;
    case "result":
      return `<li id="${item.dom}" class="result"><b>Result</b><pre>${esc(item.output)}</pre></li>`;
    case "tool": {
      const end = item.end;
      const status = end ? (end.ok ? `<span class="ok">ok</span>` : `<span class="err">error</span>`) : `<span class="muted">running…</span>`;
      const ms = end ? ` <span class="muted">${esc(formatMs(end.ms))}</span>` : "";
      const cls = end ? (end.ok ? "ok" : "err") : "running";
      let output = "";
      if (end) {
        const size = formatSize(end.outputBytes);
        const cut = Buffer.byteLength(end.output) < end.outputBytes ? ` · last ${esc(formatSize(Buffer.byteLength(end.output)))} shown` : "";
        const link = end.artifact ? `<a class="artifact" href="${esc(artifactBase + encodeURIComponent(end.artifact))}">full output</a>` : "";
        output = `<details class="output"><summary>output (${esc(size)}${cut})</summary><pre>${esc(end.output)}</pre>${link}</details>`;
      }
      const scratch = end?.ok === false ? undefined : scratchPathInArgs(item.start.name, item.start.args);
      const scratchLink = scratch !== undefined ? ` <a class="scratch" href="${esc(scratchHref(artifactBase, scratch))}">open ${esc(LOCAL_PREFIX + scratch)}</a>` : "";
      return `<li id="${item.dom}" class="tool tool-${cls}" data-tool="${esc(item.start.name)}"><div class="tool-h"><b>${esc(item.start.name)}</b> <code>${esc(item.start.args)}</code> ${status}${ms}${scratchLink}</div>${output}</li>`;
    }
  }
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function formatSize(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
