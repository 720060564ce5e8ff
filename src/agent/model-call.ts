/**
 * One streamed Messages API request. Streaming (not `create`) because long replies would hit the
 * SDK's non-streaming time limit, and because text reaches the progress comment as it arrives.
 * Failures worth another try are retried here (retry.ts): the partial reply is dropped and the
 * same request sent again.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { Usage } from "./pricing.js";
import { modelRetryPolicy, withModelRetries, type ModelRetryPolicy, type ModelWait } from "./retry.js";

export interface ModelCall {
  client: Anthropic;
  params: Anthropic.MessageCreateParamsNonStreaming;
  signal: AbortSignal;
  onText?: (delta: string) => void;
  /** Default: the policy the client was made with (provider.ts), else the defaults. */
  retry?: ModelRetryPolicy;
  /** Told before each backoff: the progress comment says the job waits for the model. */
  onWait?: (wait: ModelWait) => void;
  /**
   * Shown every streamed text and tool-input delta; when it answers with something, that
   * request alone is aborted and `done` rejects with a StreamInterrupted carrying the answer.
   */
  watch?: { reset(): void; see(block: number, delta: string): unknown };
}

/** A watched stream stopped on purpose: what stopped it, and what the dropped part used. */
export class StreamInterrupted extends Error {
  override name = "StreamInterrupted";
  constructor(
    readonly by: unknown,
    /** Input as the API reported it at message_start; output estimated from the streamed characters. */
    readonly usage: Usage,
  ) {
    super("the stream was stopped by its watcher");
  }
}

export interface ModelCallResult {
  message: Anthropic.Message;
  usage: Usage;
}

/** Our Usage from the API's: null counters (fields the API omits) count as zero. */
export function usageOf(usage: Anthropic.Usage): Usage {
  return {
    input: usage.input_tokens ?? 0,
    output: usage.output_tokens ?? 0,
    cacheRead: usage.cache_read_input_tokens ?? 0,
    cacheWrite: usage.cache_creation_input_tokens ?? 0,
  };
}

const policies = new WeakMap<Anthropic, ModelRetryPolicy>();

/** Attaches a retry policy to a client, so every request made with it (loop, compaction) follows it. */
export function setRetryPolicy(client: Anthropic, policy: ModelRetryPolicy): Anthropic {
  policies.set(client, policy);
  return client;
}

export const retryPolicyOf = (client: Anthropic): ModelRetryPolicy => policies.get(client) ?? modelRetryPolicy();

/**
 * Sends the request and waits for the whole message, retrying as retry.ts says. Rejects with the
 * SDK's error when it is not worth retrying, ModelRetriesExhausted when the window ran out, or
 * the signal's reason on a cancel. `partialText()` is what the current attempt streamed, so an
 * interrupted run can still report its text, and a retried one never repeats the dropped part.
 */
export function callModel(call: ModelCall): { done: Promise<ModelCallResult>; partialText: () => string } {
  let partial = "";
  const attempt = async (): Promise<ModelCallResult> => {
    partial = "";
    if (!call.watch) {
      const stream = call.client.messages.stream(call.params, { signal: call.signal, maxRetries: 0 });
      stream.on("text", (delta) => {
        partial += delta;
        call.onText?.(delta);
      });
      const message = await stream.finalMessage();
      return { message, usage: usageOf(message.usage) };
    }
    return watchedAttempt(call, call.watch, (delta) => (partial += delta));
  };
  const done = withModelRetries(attempt, {
    signal: call.signal,
    policy: call.retry ?? retryPolicyOf(call.client),
    onWait: (wait) => {
      partial = "";
      call.onWait?.(wait);
    },
  });
  return { done, partialText: () => partial };
}

/** One attempt whose deltas the watcher sees; a hit aborts this request only (not the run). */
async function watchedAttempt(call: ModelCall, watch: NonNullable<ModelCall["watch"]>, addPartial: (delta: string) => void): Promise<ModelCallResult> {
  watch.reset();
  const own = new AbortController();
  const follow = () => own.abort(call.signal.reason);
  if (call.signal.aborted) follow();
  else call.signal.addEventListener("abort", follow, { once: true });
  let hit: unknown;
  let streamed = 0;
  const stream = call.client.messages.stream(call.params, { signal: own.signal, maxRetries: 0 });
  stream.on("streamEvent", (event) => {
    if (hit !== undefined || event.type !== "content_block_delta") return;
    const delta = event.delta.type === "text_delta" ? event.delta.text : event.delta.type === "input_json_delta" ? event.delta.partial_json : undefined;
    if (delta === undefined) return;
    streamed += delta.length;
    hit = watch.see(event.index, delta) ?? undefined;
    if (hit !== undefined) own.abort();
    else if (event.delta.type === "text_delta") {
      addPartial(delta);
      call.onText?.(delta);
    }
  });
  try {
    const message = await stream.finalMessage();
    if (hit === undefined) return { message, usage: usageOf(message.usage) };
    throw new StreamInterrupted(hit, droppedUsage(stream.currentMessage?.usage ?? message.usage, streamed));
  } catch (error) {
    if (hit === undefined || call.signal.aborted || error instanceof StreamInterrupted) throw error;
    throw new StreamInterrupted(hit, droppedUsage(stream.currentMessage?.usage, streamed));
  } finally {
    call.signal.removeEventListener("abort", follow);
  }
}

/** What a dropped reply cost: its prompt as reported, its output estimated (about 4 characters a token). */
function droppedUsage(reported: Anthropic.Usage | undefined, streamedChars: number): Usage {
  const base = reported ? usageOf(reported) : { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  return { ...base, output: Math.max(base.output, Math.ceil(streamedChars / 4)) };
}
