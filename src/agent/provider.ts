import Anthropic from "@anthropic-ai/sdk";
import { redactJson, secretsFromEnv } from "../report/redact.js";

export interface ClientOptions {
  /** Default: `ANTHROPIC_API_KEY` of `env`. */
  apiKey?: string;
  /** Default: `ANTHROPIC_BASE_URL` of `env` (any Anthropic-compatible endpoint), else the SDK's. */
  baseURL?: string;
  env?: NodeJS.ProcessEnv;
  /** The SDK's own retries of 408/409/429/5xx/529 (with retry-after); default 2, as the SDK. */
  maxRetries?: number;
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
  return new Anthropic({
    apiKey,
    baseURL: options.baseURL || read(env, "ANTHROPIC_BASE_URL"),
    maxRetries: options.maxRetries ?? 2,
    fetch: redactingFetch([apiKey, ...secretsFromEnv(env)]),
  });
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

/** HTTP status of an error type, for errors sent inside an SSE stream (which carry no status). */
const STATUS_OF_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

/** `provider error: <status> <message>`: what the run reports when the SDK's retries gave up. */
export function describeProviderError(err: unknown): string {
  if (err instanceof Anthropic.APIError) {
    const status = err.status ?? (err.type ? STATUS_OF_TYPE[err.type] : undefined);
    const message = err.apiMessage ?? err.message.replace(/^\d{3}\s+/, "");
    const text = message || err.type || "unknown error";
    return status !== undefined ? `provider error: ${status} ${text}` : `provider error: ${text}`;
  }
  const message = err instanceof Error ? err.message : String(err);
  return `provider error: ${message || "unknown error"}`;
}
