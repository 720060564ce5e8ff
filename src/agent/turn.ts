/**
 * One turn of the loop: one model call (a prompt the API finds too long is compacted by its count
 * and sent once more) and its accounting — usage and cost, the reply kept in the conversation, the
 * turn's events. A stream rule that stops the reply drops it and puts the rule's words in its place.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { AgentRun } from "./agent-run.js";
import { withCacheBreakpoints } from "./cache.js";
import type { ContextManager } from "./context.js";
import { callModel, StreamInterrupted, type ModelCallResult } from "./model-call.js";
import { promptTooLong } from "./provider.js";

type MessageParam = Anthropic.MessageParam;

export const DEFAULT_MAX_TOKENS_PER_REPLY = 16_384;

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

/** A reply that arrived whole, and the max_tokens it was asked with. */
export interface TurnReply {
  message: Anthropic.Message;
  maxTokens: number;
}

/** Takes one turn; undefined when a stream rule stopped the reply (the loop goes on from the rule's words). */
export async function takeTurn(run: AgentRun, context: ContextManager): Promise<TurnReply | undefined> {
  const { agent } = run;
  run.budget.addTurn();
  run.turns += 1;
  run.emit({ type: "turn_start", agent, turn: run.turns });
  let sent = send(run);
  let reply: ModelCallResult | StreamInterrupted;
  try {
    reply = await ruleStopped(sent.done);
  } catch (err) {
    // The API measured the prompt over the window: compact by its count, then one more try.
    const tooLong = run.runSignal.aborted ? undefined : promptTooLong(err);
    if (!tooLong) throw err;
    run.emit({ type: "log", agent, level: "info", message: `prompt too long (${tooLong.tokens} tokens): compacting the context and trying once more` });
    context.tooLong(tooLong.tokens, run.messages.length, tooLong.maximum);
    run.messages = await context.fit(run.messages, run.runSignal.signal, run.files());
    sent = send(run);
    reply = await ruleStopped(sent.done);
  }
  if (reply instanceof StreamInterrupted) {
    interrupted(run, reply);
    return undefined;
  }
  run.opts.rules?.turnCompleted();
  const { message, usage } = reply;
  run.partialText = () => "";
  run.account(usage);
  run.messages.push({ role: "assistant", content: toParams(message.content) });
  context.observe(usage, run.messages.length);
  run.emit({ type: "turn_end", agent, turn: run.turns, stopReason: message.stop_reason });
  return { message, maxTokens: sent.maxTokens };
}

/** Starts the model call for the conversation so far. */
function send(run: AgentRun): { done: Promise<ModelCallResult>; maxTokens: number } {
  const { opts, agent, system, tools } = run;
  const limits = replyLimits(opts.maxTokensPerReply ?? DEFAULT_MAX_TOKENS_PER_REPLY, run.budget.remainingOutputTokens(), opts.thinking);
  const request = withCacheBreakpoints({ system, tools, messages: run.messages });
  const call = callModel({
    client: opts.client,
    signal: run.runSignal.signal,
    retry: opts.retry,
    onText: (delta) => run.emit({ type: "text", agent, text: delta }),
    onWait: (wait) => run.emit({ type: "model_wait", agent, ...wait }),
    watch: opts.rules?.watch(agent),
    params: {
      model: run.model,
      max_tokens: limits.maxTokens,
      ...(limits.thinking ? { thinking: limits.thinking } : {}),
      ...(system.length > 0 ? { system: request.system } : {}),
      ...(tools.length > 0 ? { tools: request.tools } : {}),
      messages: request.messages,
    },
  });
  run.partialText = () => run.continued + call.partialText();
  return { done: call.done, maxTokens: limits.maxTokens };
}

/** A stream rule matched: nothing of the reply is kept or run; its rule speaks instead. */
function interrupted(run: AgentRun, reply: StreamInterrupted): void {
  run.partialText = () => run.continued;
  const { name, message: interrupt } = run.opts.rules!.fire(reply.by);
  const cost = run.account(reply.usage);
  run.emit({ type: "rule_interrupt", agent: run.agent, turn: run.turns, rule: name, droppedTokens: reply.usage.output, costUsd: cost });
  run.messages = withUserText(run.messages, interrupt);
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
