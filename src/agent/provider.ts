import Anthropic from "@anthropic-ai/sdk";
import { redactJson, secretsFromEnv } from "../secrets/redact.js";
import { setRetryPolicy } from "./model-call.js";
import { minutes, ModelRetriesExhausted, modelRetryPolicy, MODEL_RETRY_VARIABLE, statusOf, type ModelRetryPolicy } from "./retry.js";

export interface ClientOptions {
  /** Default: `ANTHROPIC_API_KEY` of `env`. */
  apiKey?: string;
  /** Default: `ANTHROPIC_BASE_URL` of `env` (any Anthropic-compatible endpoint), else the SDK's. */
  baseURL?: string;
  env?: NodeJS.ProcessEnv;
  /**
   * Our retries of 429/5xx/529, stream errors and dropped connections (retry.ts), for every
   * request made with the client. The SDK's own retries are off: one policy, one clock.
   */
  retry?: Partial<ModelRetryPolicy>;
}

/** A set, non-blank variable; a blank one counts as unset (as in a `.env` with `KEY=`). */
const read = (env: NodeJS.ProcessEnv, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value ? value : undefined;
};

/** True when the operator gave model access (DESIGN §5 `ANTHROPIC_API_KEY`); `env` is injectable for tests and the CLI. */
export function hasApiKey(env: NodeJS.ProcessEnv = process.env): boolean {
  return read(env, "ANTHROPIC_API_KEY") !== undefined;
}

/**
 * The one place a model client is made. The key must be explicit (option or
 * `ANTHROPIC_API_KEY`): without one the SDK would fall back to its default credential chain
 * (profiles, config files), which an operator did not ask for, so we fail with a clear message.
 * Every request body leaves redacted (see `redactingFetch`).
 */
export function createClient(options: ClientOptions = {}): Anthropic {
  const env = options.env ?? process.env;
  const apiKey = options.apiKey || read(env, "ANTHROPIC_API_KEY");
  if (!apiKey) throw new Error("ANTHROPIC_API_KEY is not set: crewbot cannot reach a model");
  const client = new Anthropic({
    apiKey,
    baseURL: options.baseURL || read(env, "ANTHROPIC_BASE_URL"),
    maxRetries: 0,
    fetch: redactingFetch([apiKey, ...secretsFromEnv(env)]),
  });
  return setRetryPolicy(client, modelRetryPolicy(options.retry));
}

/**
 * `fetch` for the model client: the one point every model request passes, whatever built it
 * (prompts, issue text, tool output, compaction summaries). Its JSON body is redacted of the
 * operator's secrets and of known token shapes before it leaves, so a secret that got into a
 * tool's output (a file, a command's output) never reaches the model provider.
 */
export function redactingFetch(secrets: Array<string | undefined>, base: typeof fetch = (...args) => fetch(...args)) {
  return (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (init && typeof init.body === "string") return base(input, { ...init, body: redactJson(init.body, secrets) });
    return base(input, init);
  };
}

/** `provider error: <status> <message>`: what the run reports when a request failed for good. */
export function describeProviderError(err: unknown): string {
  if (err instanceof ModelRetriesExhausted) {
    const last = describeProviderError(err.last);
    const attempts = `${err.attempts} attempt${err.attempts === 1 ? "" : "s"}`;
    return `${last} (still failing after ${attempts} over ${minutes(err.waitedMs)}; ${MODEL_RETRY_VARIABLE} is ${minutes(err.maxMs)})`;
  }
  if (err instanceof Anthropic.APIError) {
    const status = statusOf(err);
    const message = err.apiMessage ?? err.message.replace(/^\d{3}\s+/, "");
    const text = message || err.type || "unknown error";
    return status !== undefined ? `provider error: ${status} ${text}` : `provider error: ${text}`;
  }
  const message = err instanceof Error ? err.message : String(err);
  return `provider error: ${message || "unknown error"}`;
}

/** `prompt is too long: N tokens > M maximum` (a 400 invalid_request_error): the API's own counts, if given. */
export function promptTooLong(err: unknown): { tokens: number; maximum?: number } | undefined {
  if (!(err instanceof Anthropic.APIError) || statusOf(err) !== 400) return undefined;
  const message = err.apiMessage ?? err.message;
  if (!/prompt is too long/i.test(message)) return undefined;
  const counts = /(\d+)\s*tokens?\s*>\s*(\d+)/i.exec(message);
  // Without counts we know only that it is over: force compaction with a size no window holds.
  return counts ? { tokens: Number(counts[1]), maximum: Number(counts[2]) } : { tokens: Number.MAX_SAFE_INTEGER };
}
