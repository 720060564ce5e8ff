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
    const stream = call.client.messages.stream(call.params, { signal: call.signal, maxRetries: 0 });
    stream.on("text", (delta) => {
      partial += delta;
      call.onText?.(delta);
    });
    const message = await stream.finalMessage();
    return { message, usage: usageOf(message.usage) };
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
