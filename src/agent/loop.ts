/**
 * The model loop of one agent: request → run the tools the reply asks for → send their results →
 * … until the model answers without tools, a budget runs out, the run is aborted, or the provider
 * fails. It never throws: every ending is an AgentRunResult the chain runner can report.
 * One turn is `turn.ts`, the run's state and accounting `agent-run.ts`, when it stops `stop.ts`.
 */
import Anthropic from "@anthropic-ai/sdk";
import { AgentRun } from "./agent-run.js";
import { pauseAt } from "./pause.js";
import { describeProviderError } from "./provider.js";
import { afterReply, afterToolCalls, isCutOff } from "./stop.js";
import { runReplyCalls } from "./tool-calls.js";
import { takeTurn, type TurnReply } from "./turn.js";
import type { AgentRunResult, RunAgentOptions } from "./types.js";

export const CONTINUE_PROMPT =
  "Your previous reply was cut off by the output token limit. Continue exactly where it stopped, without repeating anything.";

const textOf = (message: Anthropic.Message) =>
  message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");

export async function runAgent(opts: RunAgentOptions): Promise<AgentRunResult> {
  const run = new AgentRun(opts);
  run.emit({ type: "run_start", agent: run.agent, model: run.model, tools: opts.tools.map((t) => t.name) });
  try {
    const context = run.openContext();
    for (;;) {
      const early = run.stopBeforeRequest();
      if (early) return early;
      run.messages = await context.fit(run.messages, run.runSignal.signal, run.files(), run.forceCompaction);
      run.forceCompaction = false;
      const afterCompaction = run.stopBeforeRequest(); // a summary costs tokens too
      if (afterCompaction) return afterCompaction;
      const reply = await takeTurn(run, context);
      if (!reply) continue;
      // What the reply reports (e.g. a finished step) is about the work so far: the job acts on the
      // checkout now, before this reply's own tool calls change it further.
      await run.betweenTurns();
      const ended = await followReply(run, reply);
      if (ended) return ended;
    }
  } catch (err) {
    return failed(run, err);
  }
}

/** Carries out what follows a reply: a continuation, the end, or its tool calls and what follows them. */
async function followReply(run: AgentRun, { message, maxTokens }: TurnReply): Promise<AgentRunResult | undefined> {
  const replyText = textOf(message);
  const cutOff = isCutOff(message.stop_reason);
  // The API says the window is full: compact before the next request whatever our estimate says.
  run.forceCompaction = message.stop_reason === "model_context_window_exceeded";
  const toolCalls = message.content.filter((b) => b.type === "tool_use").length;
  const next = afterReply({ toolCalls, stopReason: message.stop_reason, continuations: run.continuations });
  if (next.next === "continue") {
    // Cut off mid-answer: ask for the rest and join the pieces.
    run.continued += replyText;
    run.text = run.continued;
    run.continuations += 1;
    run.messages.push({ role: "user", content: [{ type: "text", text: CONTINUE_PROMPT }] });
    return undefined;
  }
  if (next.next === "stop") {
    run.text = run.continued + replyText || run.text;
    return run.finish(next.stop);
  }
  run.continued = "";
  run.continuations = 0;
  if (replyText) run.text = replyText;
  const results = await runReplyCalls(message, { cutOff, maxTokens }, run.toolOptions(), run.runSignal.stopped);
  if (!results) return run.stopped();
  for (const r of results) {
    r.filesRead.forEach((f) => run.filesRead.add(f));
    r.filesChanged.forEach((f) => run.filesChanged.add(f));
  }
  const after = afterToolCalls(results);
  if (after.next === "submitted") {
    // A result tool ends the agent with its hand-over: a tool call wins over any text.
    run.submission = after.submission;
    run.text = after.submission.text;
    return run.finish({ stopReason: "done" });
  }
  if (after.next === "question") {
    run.paused = pauseAt(after.asked, results, run.messages, { turns: run.turns, ...filesSoFar(run) });
    return run.finish({ stopReason: "waiting" });
  }
  run.messages.push({ role: "user", content: results.map((r) => r.block) });
  return undefined;
}

const filesSoFar = (run: AgentRun) => ({ filesRead: [...run.filesRead], filesChanged: [...run.filesChanged] });

/** A run that failed keeps the text streamed so far; an abort is reported as the stop it was. */
function failed(run: AgentRun, err: unknown): AgentRunResult {
  const partial = run.partialText();
  if (partial) run.text = partial;
  if (run.runSignal.aborted) return run.stopped();
  if (err instanceof Anthropic.AnthropicError) return run.finish({ stopReason: "error", error: describeProviderError(err) });
  const message = err instanceof Error ? err.message : String(err);
  run.emit({ type: "log", agent: run.agent, level: "warn", message: `agent loop failed: ${message}` });
  return run.finish({ stopReason: "error", error: `internal error: ${message}` });
}
