/**
 * The bench's baseline: the simplest strong agent (after mini-SWE-agent) — one system prompt, one
 * `bash` tool, a loop. Same client (provider.ts), same streamed call and retries (model-call.ts),
 * same budgets and prices as crewbot, and its commands run through crewbot's one command runner,
 * in the sandbox with network off, so only the scaffold differs. It is done when it replies
 * without a tool call.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { BudgetTracker, type Budgets } from "../src/agent/budget.js";
import type { BudgetName } from "../src/agent/events.js";
import { callModel } from "../src/agent/model-call.js";
import { runCommand } from "../src/tools/run-command.js";
import type { SandboxInfo } from "../src/tools/types.js";

export const BASELINE_SYSTEM = `You are a software engineer working in a shell on a checkout of a repository. You get an issue; fix it in the code.
Use the bash tool for everything: reading files (cat, grep, sed -n), editing them (sed -i, patch, a heredoc into a file, or a small node script) and running tests.
Each command runs in a fresh shell in the repository's root; there is no network. Keep outputs short (head, grep).
Make the smallest change that fixes the issue, check it by running code, and do not commit. When you are done, reply with a short summary and no tool call.`;

const BASH_TOOL: Anthropic.Tool = {
  name: "bash",
  description: "Run a bash command in the repository's root and get its exit code and output (the last 10,000 characters).",
  input_schema: { type: "object", properties: { command: { type: "string", description: "The command to run." } }, required: ["command"] },
};

const OUTPUT_CHARS = 10_000;
const COMMAND_TIMEOUT_MS = 120_000;
const MAX_TOKENS = 8192;

export interface BaselineOptions {
  /** The checkout (a realpath); the scratch dir is the commands' HOME. */
  root: string;
  scratchDir: string;
  issue: string;
  client: Anthropic;
  model: string;
  budgets: Budgets;
  sandbox: SandboxInfo;
  signal?: AbortSignal;
}

export interface BaselineResult {
  /** `done`: it said so; else the budget it ran into, or `error`. */
  stopReason: "done" | BudgetName | "error";
  error?: string;
  turns: number;
  costUsd: number;
  costEstimate: boolean;
  durationMs: number;
}

export async function runBaseline(opts: BaselineOptions): Promise<BaselineResult> {
  const budget = new BudgetTracker(opts.budgets);
  const end = (stopReason: BaselineResult["stopReason"], error?: string): BaselineResult => ({
    stopReason,
    ...(error !== undefined ? { error } : {}),
    turns: budget.turns,
    costUsd: budget.costUsd,
    costEstimate: budget.estimate,
    durationMs: budget.elapsedMs(),
  });
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: [{ type: "text", text: `<issue>\n${opts.issue}\n</issue>` }] }];
  const signal = opts.signal ?? new AbortController().signal;
  for (;;) {
    const over = budget.exceeded();
    if (over) return end(over);
    budget.addTurn();
    let message: Anthropic.Message;
    try {
      const call = callModel({
        client: opts.client,
        signal,
        params: { model: opts.model, max_tokens: Math.min(MAX_TOKENS, Math.max(1, budget.remainingOutputTokens())), system: [{ type: "text", text: BASELINE_SYSTEM, cache_control: { type: "ephemeral" } }], tools: [BASH_TOOL], messages: withCacheMark(messages) },
      });
      const result = await call.done;
      message = result.message;
      budget.addUsage(opts.model, result.usage);
    } catch (error) {
      return end("error", (error as Error).message);
    }
    messages.push({ role: "assistant", content: message.content });
    const calls = message.content.filter((b): b is Anthropic.ToolUseBlock => b.type === "tool_use");
    if (calls.length === 0) return end("done");
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const use of calls) results.push({ type: "tool_result", tool_use_id: use.id, content: await bash(opts, use.input, signal) });
    messages.push({ role: "user", content: results });
  }
}

async function bash(opts: BaselineOptions, input: unknown, signal: AbortSignal): Promise<string> {
  const command = (input as { command?: unknown }).command;
  if (typeof command !== "string" || command.trim() === "") return "error: the bash tool needs {\"command\": \"...\"}";
  let output = "";
  const ctx = { root: opts.root, mode: "write" as const, network: false, scratchDir: opts.scratchDir, artifactsDir: opts.scratchDir, sandbox: opts.sandbox, envAllowlist: {} };
  const res = await runCommand(ctx, command, { timeoutMs: COMMAND_TIMEOUT_MS, signal, onData: (c) => (output = (output + c.toString("utf8")).slice(-OUTPUT_CHARS)) });
  const status = res.spawnError ?? res.limit ?? (res.timedOut ? `timed out after ${COMMAND_TIMEOUT_MS / 1000}s` : `exit code ${res.exitCode ?? res.signal}`);
  return `${status}\n${output}`;
}

/** One moving cache breakpoint on the newest message, so each turn reads the conversation so far from the cache. */
function withCacheMark(messages: Anthropic.MessageParam[]): Anthropic.MessageParam[] {
  const last = messages.at(-1)!;
  const blocks = last.content as Anthropic.ContentBlockParam[];
  const marked = blocks.map((b, i) => (i === blocks.length - 1 ? { ...b, cache_control: { type: "ephemeral" as const } } : b));
  return [...messages.slice(0, -1), { ...last, content: marked } as Anthropic.MessageParam];
}
