/**
 * How a transcript's steps and items look on the job page: the whole page and each live update
 * render the same fragments.
 */
import type { Usage } from "../agent/pricing.js";
import { formatCost, formatTokens, totalTokens } from "../report/format.js";
import type { TranscriptBody } from "../transcripts/types.js";
import { LOCAL_PREFIX } from "../tools/paths.js";
import { scratchHref, scratchPathInArgs } from "./artifacts.js";
import { esc } from "./html.js";

export type Body<T extends TranscriptBody["type"]> = Extract<TranscriptBody, { type: T }>;

export type Item =
  | { kind: "turn"; dom: string; turn: number }
  | { kind: "text"; dom: string; text: string }
  | { kind: "tool"; dom: string; start: Body<"tool_start">; end?: Body<"tool_end"> }
  | { kind: "usage"; dom: string; usage: Usage; costUsd: number; estimate: boolean }
  | { kind: "note"; dom: string; level: "info" | "warn"; message: string }
  | { kind: "result"; dom: string; output: string };

export interface Step {
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

export function renderStep(step: Step, artifactBase: string): string {
  const lanes = step.lanes ? `\n<div class="lanes" id="${step.dom}-l">${step.lanes.map((l) => renderLane(l, artifactBase)).join("\n")}</div>` : "";
  return `<section id="${step.dom}" class="card step">${renderStepHead(step)}${lanes}
<ol class="items" id="${step.dom}-i">${step.items.map((i) => renderItem(i, artifactBase)).join("")}</ol></section>`;
}

function renderLane(lane: Step, artifactBase: string): string {
  return `<section id="${lane.dom}" class="lane" data-agent="${esc(lane.agent)}" data-item="${esc(lane.item)}">${renderStepHead(lane)}
<ol class="items" id="${lane.dom}-i">${lane.items.map((i) => renderItem(i, artifactBase)).join("")}</ol></section>`;
}

export function renderStepHead(step: Step): string {
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

export function renderItem(item: Item, artifactBase: string): string {
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
