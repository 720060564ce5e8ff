/**
 * Keeps a run's conversation inside the model's context window: measures it from each reply's
 * usage, and before a request that would come too close to the window, prunes old tool
 * outputs, then if needed has the model summarise older turns (see compaction.ts for the rules).
 */
import type Anthropic from "@anthropic-ai/sdk";
import { safeSummary, type ArgsSummarizer } from "./args.js";
import {
  compactedMessages,
  contextTokens,
  estimateTokens,
  findCut,
  pruneToolOutputs,
  renderTranscript,
  SUMMARY_SYSTEM,
  summaryPrompt,
} from "./compaction.js";
import type { EventSink } from "./events.js";
import { callModel } from "./model-call.js";
import type { Usage } from "./pricing.js";
import type { ModelRetryPolicy } from "./retry.js";

type MessageParam = Anthropic.MessageParam;

export interface ContextOptions {
  agent: string;
  model: string;
  client: Anthropic;
  /** The original task prompt: always the head of the first user message. */
  prompt: string;
  window: number;
  reserveTokens: number;
  emit: EventSink;
  summarizeArgs: ArgsSummarizer;
  /** Prices and records a reply's usage (budget, events, the run's totals). */
  account: (usage: Usage) => void;
  /** Estimated tokens of the system prompt and tool specs, sent with every request. */
  overheadTokens: number;
  /** max_tokens for the summary, already clamped to the output budget. */
  summaryMaxTokens: () => number;
  /** Retries of the summary request; default: the client's policy. */
  retry?: ModelRetryPolicy;
}

/** A summary needs room but not a novel. */
export const SUMMARY_MAX_TOKENS = 8192;

export class ContextManager {
  private baseTokens = 0;
  private baseLength = 0;
  private summary: string | undefined;
  private window: number;

  constructor(private readonly o: ContextOptions) {
    this.window = o.window;
  }

  /** Tokens a request may use before we compact: the window minus room for the reply. */
  get limit(): number {
    return Math.max(0, this.window - this.o.reserveTokens);
  }

  /**
   * The API refused the request as too long and said how long it was (`prompt is too long: N
   * tokens > M maximum`): that count replaces our measure, and M our idea of the window.
   */
  tooLong(tokens: number, messagesLength: number, maximum?: number): void {
    this.baseTokens = tokens;
    this.baseLength = messagesLength;
    if (maximum !== undefined && maximum > 0) this.window = Math.min(this.window, maximum);
  }

  /** Called after each reply is appended: the reply's usage measures everything up to it. */
  observe(usage: Usage, messagesLength: number): void {
    this.baseTokens = contextTokens(usage);
    this.baseLength = messagesLength;
  }

  /** The next request's size: the measured part plus an estimate of what came after it. */
  projected(messages: MessageParam[]): number {
    const added = messages.slice(this.baseLength);
    return this.baseTokens + (added.length > 0 ? estimateTokens(added) : 0);
  }

  /** The messages to send next: unchanged, pruned, or summarised. */
  async fit(
    messages: MessageParam[],
    signal: AbortSignal,
    files: { read: string[]; changed: string[] },
    force = false,
  ): Promise<MessageParam[]> {
    let projected = this.projected(messages);
    if (projected <= this.limit && !force) return messages;
    const describe = (tool: string, input: unknown) => safeSummary(this.o.summarizeArgs, tool, input);

    const pruned = pruneToolOutputs(messages, { describe });
    if (pruned.pruned > 0) {
      this.o.emit({ type: "compaction", agent: this.o.agent, kind: "prune", beforeTokens: projected });
      projected -= estimateTokens(messages) - estimateTokens(pruned.messages);
      messages = pruned.messages;
      if (projected <= this.limit && !force) return this.rebase(messages, projected);
    }

    const cut = findCut(messages, { maxRecentTokens: Math.floor(this.limit / 2) });
    if (cut === undefined) return this.rebase(messages, projected);
    this.o.emit({ type: "compaction", agent: this.o.agent, kind: "summary", beforeTokens: projected });

    // The summary request carries no tools, so the turns go in as text, not as tool blocks.
    const transcript = renderTranscript(messages.slice(1, cut), Math.max(2000, Math.floor(this.limit * 4 * 0.6)));
    const call = callModel({
      client: this.o.client,
      signal,
      retry: this.o.retry,
      onWait: (wait) => this.o.emit({ type: "model_wait", agent: this.o.agent, ...wait }),
      params: {
        model: this.o.model,
        max_tokens: this.o.summaryMaxTokens(),
        system: SUMMARY_SYSTEM,
        messages: [{ role: "user", content: summaryPrompt(transcript, this.summary) }],
      },
    });
    const { message, usage } = await call.done;
    this.o.account(usage);
    this.summary = message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");

    const compacted = compactedMessages({
      prompt: this.o.prompt,
      summary: this.summary,
      filesRead: files.read,
      filesChanged: files.changed,
      recent: messages.slice(cut),
    });
    return this.rebase(compacted, this.o.overheadTokens + estimateTokens(compacted));
  }

  /** After a change the old measurement no longer applies; estimate until the next reply measures again. */
  private rebase(messages: MessageParam[], tokens: number): MessageParam[] {
    this.baseTokens = tokens;
    this.baseLength = messages.length;
    return messages;
  }
}
