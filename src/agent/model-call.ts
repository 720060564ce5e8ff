/**
 * One streamed Messages API request. Streaming (not `create`) because long replies would hit the
 * SDK's non-streaming time limit, and because text reaches the progress comment as it arrives.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { Usage } from "./pricing.js";

export interface ModelCall {
  client: Anthropic;
  params: Anthropic.MessageCreateParamsNonStreaming;
  signal: AbortSignal;
  onText?: (delta: string) => void;
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

/**
 * Sends the request and waits for the whole message. Rejects with the SDK's error: an APIError
 * once its retries gave up, or APIUserAbortError when `signal` fired. `partialText()` is what
 * streamed before a failure, so an interrupted run can still report the text produced so far.
 */
export function callModel(call: ModelCall): { done: Promise<ModelCallResult>; partialText: () => string } {
  let partial = "";
  const stream = call.client.messages.stream(call.params, { signal: call.signal });
  stream.on("text", (delta) => {
    partial += delta;
    call.onText?.(delta);
  });
  const done = stream.finalMessage().then((message) => ({ message, usage: usageOf(message.usage) }));
  return { done, partialText: () => partial };
}
