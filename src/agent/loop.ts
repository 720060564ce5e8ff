/**
 * The model loop of one agent: request → run the tools the reply asks for → send their results →
 * … until the model answers without tools, a budget runs out, the run is aborted, or the provider
 * fails. It never throws: every ending is an AgentRunResult the chain runner can report.
 */
import Anthropic from "@anthropic-ai/sdk";
import { toolSpec } from "../tools/schema.js";
import type { Submission, ToolContext } from "../tools/types.js";
import { defaultSummarizeArgs } from "./args.js";
import { describeBudget } from "./budget.js";
import { withCacheBreakpoints } from "./cache.js";
import { estimateTokens } from "./compaction.js";
import { ContextManager, SUMMARY_MAX_TOKENS } from "./context.js";
import type { BudgetName, EventSink, StopReason } from "./events.js";
import { callModel, StreamInterrupted, type ModelCallResult } from "./model-call.js";
import { addUsage, contextWindowOf, emptyUsage, type Usage } from "./pricing.js";
import { describeProviderError, promptTooLong } from "./provider.js";
import { RunSignal, type StopCause } from "./run-signal.js";
import { refusedCall, runToolCalls, type ToolCall, type ToolCallResult } from "./tool-calls.js";
import type { AgentPause, AgentResume, AgentRunResult, RunAgentOptions } from "./types.js";

type MessageParam = Anthropic.MessageParam;

export const DEFAULT_MAX_TOKENS_PER_REPLY = 16_384;
export const DEFAULT_RESERVE_TOKENS = 16_384;

/** How many times in a row a reply cut off by max_tokens is continued before we keep the partial text. */
export const MAX_CONTINUATIONS = 3;

export const CONTINUE_PROMPT =
  "Your previous reply was cut off by the output token limit. Continue exactly where it stopped, without repeating anything.";

const truncatedCallMessage = (maxTokens: number) =>
  `Not run: your reply reached the max_tokens limit (${maxTokens}) before this call's input was complete. ` +
  "Send the call again; if its input is large (a whole file), split the work into smaller calls.";

/** The reply as we send it back: only the fields the API needs, so the bytes are stable. */
function toParams(content: Anthropic.ContentBlock[]): Anthropic.ContentBlockParam[] {
  const params = content.flatMap((block): Anthropic.ContentBlockParam[] => {
    switch (block.type) {
      case "text":
        return block.text ? [{ type: "text", text: block.text }] : [];
      case "tool_use":
        return [{ type: "tool_use", id: block.id, name: block.name, input: block.input }];
      case "thinking":
        return [{ type: "thinking", thinking: block.thinking, signature: block.signature }];
      case "redacted_thinking":
        return [{ type: "redacted_thinking", data: block.data }];
      default:
        return [block as unknown as Anthropic.ContentBlockParam];
    }
  });
  // The API refuses an empty assistant message in the middle of a conversation.
  return params.length > 0 ? params : [{ type: "text", text: "…" }];
}

/** The API's floor for a thinking budget. */
export const MIN_THINKING_TOKENS = 1024;

/**
 * max_tokens and the thinking budget of one reply. Thinking tokens are output tokens: they come
 * out of max_tokens (which must exceed the budget) and out of the job's output budget. When the
 * output budget left cannot hold the API's minimum thinking budget, the reply goes without.
 */
export function replyLimits(
  perReply: number,
  outputLeft: number,
  thinking: number | undefined,
): { maxTokens: number; thinking?: { type: "enabled"; budget_tokens: number } } {
  const plain = Math.max(1, Math.min(perReply, outputLeft));
  if (!thinking) return { maxTokens: plain };
  const maxTokens = Math.max(1, Math.min(thinking + perReply, outputLeft));
  const budgetTokens = Math.min(thinking, maxTokens - 1);
  if (budgetTokens < MIN_THINKING_TOKENS) return { maxTokens: plain };
  return { maxTokens, thinking: { type: "enabled", budget_tokens: budgetTokens } };
}

/** One question at a time: a second `ask_user` in the same reply is answered with this. */
export const ONE_QUESTION_AT_A_TIME = "Not asked: one question at a time. Ask it again after the first is answered, if it still matters.";

/** The pause at a reply whose `asked` call is an `ask_user` question: the conversation up to that reply. */
function pauseAt(
  asked: ToolCallResult,
  results: ToolCallResult[],
  messages: MessageParam[],
  so: { turns: number; filesRead: string[]; filesChanged: string[] },
): AgentPause {
  const blocks = results.map((r): Anthropic.ToolResultBlockParam =>
    r.question && r !== asked ? { type: "tool_result", tool_use_id: r.block.tool_use_id, content: ONE_QUESTION_AT_A_TIME, is_error: true } : r.block,
  );
  return { question: asked.question!, toolUseId: asked.block.tool_use_id, messages: [...messages], results: blocks, ...so };
}

/** The saved conversation, then the reply's results with the answer as the asking call's result. */
function resumedMessages({ pause, answer }: AgentResume): MessageParam[] {
  const results = pause.results.map((block): Anthropic.ToolResultBlockParam =>
    block.tool_use_id === pause.toolUseId ? { type: "tool_result", tool_use_id: block.tool_use_id, content: answer } : block,
  );
  return [...pause.messages, { role: "user", content: results }];
}

/** A rule's interrupt resolves instead of rejecting: the loop goes on from it. */
const ruleStopped = (done: Promise<ModelCallResult>): Promise<ModelCallResult | StreamInterrupted> =>
  done.catch((err: unknown) => {
    if (err instanceof StreamInterrupted) return err;
    throw err;
  });

/** `text` added as a user message: joined to the last user turn (the API takes no two in a row). */
function withUserText(messages: MessageParam[], text: string): MessageParam[] {
  const last = messages[messages.length - 1];
  if (last?.role !== "user") return [...messages, { role: "user", content: [{ type: "text", text }] }];
  const content = typeof last.content === "string" ? [{ type: "text" as const, text: last.content }] : last.content;
  return [...messages.slice(0, -1), { role: "user", content: [...content, { type: "text", text }] }];
}

const textOf = (message: Anthropic.Message) =>
  message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");

export async function runAgent(opts: RunAgentOptions): Promise<AgentRunResult> {
  let ended = false;
  const sink = opts.emit;
  // Nothing after run_end (a tool that ignored the abort may finish later), and a failing
  // reporter must not take the run down with it.
  const emit: EventSink = (event) => {
    if (ended || !sink) return;
    try {
      sink(event);
    } catch {
      // The event is lost; the run goes on.
    }
  };
  const { budget, agent, model } = opts;
  const summarizeArgs = opts.summarizeArgs ?? defaultSummarizeArgs;
  const run = new RunSignal(opts.signal, budget.remainingMs());
  // Tools get the run's signal, so an abort or the time budget kills their processes too.
  const toolContext: ToolContext = { ...opts.toolContext, signal: run.signal };

  // Built once per run and never changed: byte-identical every turn, so their cache entries hold.
  const system: Anthropic.TextBlockParam[] = opts.system ? [{ type: "text", text: opts.system }] : [];
  let tools: Anthropic.Tool[] = []; // set in the try below: a tool whose schema cannot be converted ends the run, not the process
  let messages: MessageParam[] = opts.resume
    ? resumedMessages(opts.resume)
    : [{ role: "user", content: [{ type: "text", text: opts.prompt || "(no task given)" }] }];

  let turns = opts.resume?.pause.turns ?? 0;
  let usage: Usage = emptyUsage();
  let costUsd = 0;
  let estimate = false;
  let text = "";
  const filesRead = new Set<string>(opts.resume?.pause.filesRead);
  const filesChanged = new Set<string>(opts.resume?.pause.filesChanged);
  /** Text of replies cut off by max_tokens, waiting for their continuation. */
  let continued = "";
  let continuations = 0;
  let forceCompaction = false;
  /** Set when a result tool (submit_plan, submit_review) ended the run. */
  let submission: Submission | undefined;
  /** Set when `ask_user` paused the run. */
  let paused: AgentPause | undefined;

  const account = (reply: Usage): number => {
    const cost = budget.addUsage(model, reply);
    usage = addUsage(usage, reply);
    costUsd += cost.usd;
    estimate ||= cost.estimate;
    // Per reply, not cumulative: a reporter sums them across agents for job totals.
    emit({ type: "usage", agent, usage: reply, costUsd: cost.usd, estimate: cost.estimate });
    return cost.usd;
  };

  const newContext = () => new ContextManager({
    agent,
    model,
    client: opts.client,
    prompt: opts.prompt,
    window: opts.contextWindow ?? contextWindowOf(model),
    reserveTokens: opts.reserveTokens ?? DEFAULT_RESERVE_TOKENS,
    emit,
    summarizeArgs,
    account,
    overheadTokens: estimateTokens(system) + estimateTokens(tools),
    summaryMaxTokens: () => Math.max(1, Math.min(SUMMARY_MAX_TOKENS, opts.maxTokensPerReply ?? SUMMARY_MAX_TOKENS, budget.remainingOutputTokens())),
    retry: opts.retry,
  });

  const finish = (stopReason: StopReason, extra: { budget?: BudgetName; error?: string } = {}): AgentRunResult => {
    run.dispose();
    emit({ type: "run_end", agent, stopReason, ...extra });
    ended = true;
    return {
      stopReason,
      ...extra,
      text,
      turns,
      usage,
      costUsd,
      estimate,
      filesRead: [...filesRead],
      filesChanged: [...filesChanged],
      ...(submission ? { submission } : {}),
      ...(paused ? { paused } : {}),
    };
  };
  const stopped = (cause: StopCause) =>
    cause === "aborted"
      ? finish("aborted", { error: "aborted" })
      : finish("budget", { budget: "maxMinutes", error: describeBudget("maxMinutes", budget.limits) });

  /** The result to end with before a request, if the run may not make one. */
  const mustStop = (): AgentRunResult | undefined => {
    if (run.aborted) return stopped(run.cause ?? "aborted");
    const over = budget.exceeded();
    if (over) return finish("budget", { budget: over, error: describeBudget(over, budget.limits) });
    if (opts.maxTurns !== undefined && turns >= opts.maxTurns) {
      const limits = { ...budget.limits, maxTurns: opts.maxTurns };
      return finish("budget", { budget: "maxTurns", error: `${describeBudget("maxTurns", limits)} for agent ${agent}` });
    }
    return undefined;
  };

  emit({ type: "run_start", agent, model, tools: opts.tools.map((t) => t.name) });
  let partialText = () => "";
  try {
    tools = opts.tools.map((tool) => toolSpec(tool) as Anthropic.Tool);
    const context = newContext();
    const between = async () => {
      if (!opts.betweenTurns) return;
      try {
        await opts.betweenTurns();
      } catch (err) {
        emit({ type: "log", agent, level: "warn", message: `between turns: ${err instanceof Error ? err.message : String(err)}` });
      }
    };
    for (;;) {
      const early = mustStop();
      if (early) return early;
      const files = { read: [...filesRead], changed: [...filesChanged] };
      messages = await context.fit(messages, run.signal, files, forceCompaction);
      forceCompaction = false;
      const afterCompaction = mustStop(); // a summary costs tokens too
      if (afterCompaction) return afterCompaction;

      budget.addTurn();
      turns += 1;
      emit({ type: "turn_start", agent, turn: turns });
      const send = () => {
        const limits = replyLimits(opts.maxTokensPerReply ?? DEFAULT_MAX_TOKENS_PER_REPLY, budget.remainingOutputTokens(), opts.thinking);
        const request = withCacheBreakpoints({ system, tools, messages });
        const call = callModel({
          client: opts.client,
          signal: run.signal,
          retry: opts.retry,
          onText: (delta) => emit({ type: "text", agent, text: delta }),
          onWait: (wait) => emit({ type: "model_wait", agent, ...wait }),
          watch: opts.rules?.watch(agent),
          params: {
            model,
            max_tokens: limits.maxTokens,
            ...(limits.thinking ? { thinking: limits.thinking } : {}),
            ...(system.length > 0 ? { system: request.system } : {}),
            ...(tools.length > 0 ? { tools: request.tools } : {}),
            messages: request.messages,
          },
        });
        partialText = () => continued + call.partialText();
        return { done: call.done, maxTokens: limits.maxTokens };
      };
      let sent = send();
      let reply: ModelCallResult | StreamInterrupted;
      try {
        reply = await ruleStopped(sent.done);
      } catch (err) {
        // The API measured the prompt over the window: compact by its count, then one more try.
        const tooLong = run.aborted ? undefined : promptTooLong(err);
        if (!tooLong) throw err;
        emit({ type: "log", agent, level: "info", message: `prompt too long (${tooLong.tokens} tokens): compacting the context and trying once more` });
        context.tooLong(tooLong.tokens, messages.length, tooLong.maximum);
        messages = await context.fit(messages, run.signal, { read: [...filesRead], changed: [...filesChanged] });
        sent = send();
        reply = await ruleStopped(sent.done);
      }
      if (reply instanceof StreamInterrupted) {
        // A stream rule matched: nothing of the reply is kept or run; its rule speaks instead.
        partialText = () => continued;
        const { name, message: interrupt } = opts.rules!.fire(reply.by);
        const cost = account(reply.usage);
        emit({ type: "rule_interrupt", agent, turn: turns, rule: name, droppedTokens: reply.usage.output, costUsd: cost });
        messages = withUserText(messages, interrupt);
        continue;
      }
      opts.rules?.turnCompleted();
      const maxTokens = sent.maxTokens;
      const { message, usage: replyUsage } = reply;
      partialText = () => "";
      account(replyUsage);
      messages.push({ role: "assistant", content: toParams(message.content) });
      context.observe(replyUsage, messages.length);
      emit({ type: "turn_end", agent, turn: turns, stopReason: message.stop_reason });
      // What the reply reports (e.g. a finished step) is about the work so far: the job acts on the
      // checkout now, before this reply's own tool calls change it further.
      await between();

      const replyText = textOf(message);
      const toolUses = message.content.filter((b): b is Anthropic.ToolUseBlock => b.type === "tool_use");
      const cutOff = message.stop_reason === "max_tokens" || message.stop_reason === "model_context_window_exceeded";
      // The API says the window is full: compact before the next request whatever our estimate says.
      forceCompaction = message.stop_reason === "model_context_window_exceeded";

      if (toolUses.length === 0) {
        // Cut off mid-answer: ask for the rest and join the pieces; after MAX_CONTINUATIONS keep what we have.
        if (cutOff && continuations < MAX_CONTINUATIONS) {
          continued += replyText;
          text = continued;
          continuations += 1;
          messages.push({ role: "user", content: [{ type: "text", text: CONTINUE_PROMPT }] });
          continue;
        }
        text = continued + replyText || text;
        if (message.stop_reason === "refusal") return finish("error", { error: "the model declined to continue (refusal)" });
        return finish("done");
      }

      continued = "";
      continuations = 0;
      if (replyText) text = replyText;
      const calls: ToolCall[] = toolUses.map((b) => ({ id: b.id, name: b.name, input: b.input }));
      // With max_tokens, the last block was cut mid-way: if it is a tool call its input is incomplete.
      const lastBlock = message.content[message.content.length - 1];
      const truncatedId = cutOff && lastBlock?.type === "tool_use" ? lastBlock.id : undefined;
      const toolOptions = { agent, tools: opts.tools, ctx: toolContext, emit, summarizeArgs };
      const work = runToolCalls(calls.filter((c) => c.id !== truncatedId), toolOptions);
      work.catch(() => {}); // may settle after we stopped racing it
      const ran = await Promise.race([work, run.stopped.then(() => undefined)]);
      if (!ran) return stopped(run.cause ?? "aborted");

      const results: ToolCallResult[] = calls.map((c) =>
        c.id === truncatedId ? refusedCall(c, truncatedCallMessage(maxTokens), toolOptions) : ran.shift()!,
      );
      for (const r of results) {
        r.filesRead.forEach((f) => filesRead.add(f));
        r.filesChanged.forEach((f) => filesChanged.add(f));
      }
      // A result tool ends the agent with its hand-over: a tool call wins over any text.
      submission = results.find((r) => r.final)?.final;
      if (submission) {
        text = submission.text;
        return finish("done");
      }
      const asked = results.find((r) => r.question);
      if (asked) {
        paused = pauseAt(asked, results, messages, { turns, filesRead: [...filesRead], filesChanged: [...filesChanged] });
        return finish("waiting");
      }
      messages.push({ role: "user", content: results.map((r) => r.block) });
    }
  } catch (err) {
    const partial = partialText();
    if (partial) text = partial;
    if (run.aborted) return stopped(run.cause ?? "aborted");
    if (err instanceof Anthropic.AnthropicError) return finish("error", { error: describeProviderError(err) });
    const message = err instanceof Error ? err.message : String(err);
    emit({ type: "log", agent, level: "warn", message: `agent loop failed: ${message}` });
    return finish("error", { error: `internal error: ${message}` });
  }
}
