/**
 * The one retry policy for model requests (the SDK's own retries are off). An overloaded (529),
 * rate-limited (429) or failing (5xx) API, an error event inside a streamed reply and a dropped
 * connection are retried with exponential backoff and jitter, honouring `retry-after-ms` /
 * `retry-after`, until `CREWBOT_MODEL_RETRY_MINUTES` have passed for that one request. A peak-time
 * overload lasts minutes; the SDK's two quick retries would lose a half-done job.
 */
import Anthropic from "@anthropic-ai/sdk";

export const MODEL_RETRY_VARIABLE = "CREWBOT_MODEL_RETRY_MINUTES";
export const DEFAULT_MODEL_RETRY_MINUTES = 10;

export interface ModelRetryPolicy {
  /** How long one model request keeps being retried, from its first attempt. */
  maxMs: number;
  /** The first backoff; each further one doubles, up to `capMs`. */
  baseMs: number;
  capMs: number;
  now: () => number;
  /** Resolves after `ms`; rejects at once when `signal` fires (a cancel or the time budget). */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** In [0, 1): the jitter, so many jobs hit by one overload do not come back in step. */
  random: () => number;
}

export interface ModelWait {
  /** The attempt that failed, 1-based. */
  attempt: number;
  waitMs: number;
  /** e.g. `529 overloaded_error: Overloaded`. */
  reason: string;
}

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason ?? new Error("aborted"));
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason ?? new Error("aborted"));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

export function modelRetryPolicy(overrides: Partial<ModelRetryPolicy> = {}): ModelRetryPolicy {
  return {
    maxMs: DEFAULT_MODEL_RETRY_MINUTES * 60_000,
    baseMs: 1000,
    // Long enough not to hammer an overloaded API, short enough not to overshoot the overload's end by much.
    capMs: 30_000,
    now: Date.now,
    sleep: abortableSleep,
    random: Math.random,
    ...overrides,
  };
}

/** `CREWBOT_MODEL_RETRY_MINUTES` (default 10); a bad value stops the app naming the variable. */
export function modelRetryMinutes(env: NodeJS.ProcessEnv): number {
  const raw = env[MODEL_RETRY_VARIABLE]?.trim();
  if (raw === undefined || raw === "") return DEFAULT_MODEL_RETRY_MINUTES;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${MODEL_RETRY_VARIABLE} must be a number of minutes, 0 or more, got "${raw}"`);
  return value;
}

/** HTTP status of an error type, for errors sent inside an SSE stream (which carry no status). */
export const STATUS_OF_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
  // Amazon Bedrock's exceptions inside an event stream (its SDK names the error event after them), by AWS's status for each.
  validationException: 400,
  modelTimeoutException: 408,
  modelStreamErrorException: 424,
  throttlingException: 429,
  internalServerException: 500,
  serviceUnavailableException: 503,
};

/** Error types worth another try whatever their status: AWS says of a broken model stream "retry your request". */
const RETRY_TYPES = new Set(["modelStreamErrorException"]);

/** The provider's own words: the Messages API's `error.message`, else the bare `message` of Amazon's error body. */
export function apiMessageOf(err: InstanceType<typeof Anthropic.APIError>): string | undefined {
  if (err.apiMessage) return err.apiMessage;
  const body = err.error as { message?: unknown } | undefined;
  return typeof body?.message === "string" && body.message ? body.message : undefined;
}

export const statusOf = (err: InstanceType<typeof Anthropic.APIError>): number | undefined => err.status ?? (err.type ? STATUS_OF_TYPE[err.type] : undefined);

/**
 * Why `err` is worth another try, or undefined when it is not (a bad request, a refused key, a
 * cancel). Only the SDK's errors and a cut stream qualify: a bug of ours is never retried.
 */
export function retryReason(err: unknown): string | undefined {
  if (err instanceof Anthropic.APIUserAbortError) return undefined;
  if (err instanceof Anthropic.APIConnectionError) return `connection error: ${err.message}`;
  if (err instanceof Anthropic.APIError) {
    const advice = err.headers?.get("x-should-retry");
    if (advice === "false") return undefined;
    const status = statusOf(err);
    const retryable =
      advice === "true" || status === 408 || status === 409 || status === 429 || (status !== undefined && status >= 500) || RETRY_TYPES.has(err.type ?? "");
    if (!retryable) return undefined;
    const what = [status, err.type].filter((x) => x !== undefined && x !== null).join(" ");
    const message = apiMessageOf(err) ?? "";
    return message && message !== err.type ? `${what}: ${message}` : what;
  }
  // A connection cut mid-stream surfaces from the body reader, not as an SDK error.
  if (err instanceof Error && isDroppedConnection(err)) return `connection dropped: ${err.message}`;
  return undefined;
}

const DROPPED = /terminated|socket hang up|ECONNRESET|EPIPE|other side closed|premature close/i;

function isDroppedConnection(err: Error): boolean {
  const cause = (err as { cause?: unknown }).cause;
  const code = (cause as { code?: string } | undefined)?.code ?? (err as { code?: string }).code;
  if (code && /^(ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED|ECONNREFUSED)$/.test(code)) return true;
  return err.name === "TypeError" && DROPPED.test(err.message);
}

/** The server's advice in ms (`retry-after-ms`, then `retry-after` as seconds or an HTTP date), if any. */
export function retryAfterMs(err: unknown, now: number): number | undefined {
  if (!(err instanceof Anthropic.APIError) || !err.headers) return undefined;
  const ms = Number.parseFloat(err.headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = err.headers.get("retry-after");
  if (!raw) return undefined;
  const seconds = Number.parseFloat(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/** Exponential backoff with "equal jitter": half the step fixed, half random, so waits never collapse to 0. */
export function backoffMs(attempt: number, policy: Pick<ModelRetryPolicy, "baseMs" | "capMs" | "random">): number {
  const step = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + policy.random() * (step / 2));
}

/** Thrown when a retryable failure outlasted the window: the run ends `provider error: …` saying so. */
export class ModelRetriesExhausted extends Anthropic.AnthropicError {
  constructor(
    readonly last: unknown,
    readonly attempts: number,
    readonly waitedMs: number,
    readonly maxMs: number,
  ) {
    super(`gave up after ${attempts} attempts`);
    this.name = "ModelRetriesExhausted";
  }
}

export const minutes = (ms: number) => {
  const m = ms / 60_000;
  if (m < 1) return `${Math.round(ms / 1000)} s`;
  return Number.isInteger(m) ? `${m} min` : `${m.toFixed(1)} min`;
};

/**
 * Runs `attempt` until it succeeds, fails in a way not worth retrying (thrown as is), or the
 * window is used up (ModelRetriesExhausted). `onWait` is told before each backoff. The signal
 * stops a backoff at once; its reason is thrown.
 */
export async function withModelRetries<T>(
  attempt: () => Promise<T>,
  options: { signal: AbortSignal; policy: ModelRetryPolicy; onWait?: (wait: ModelWait) => void },
): Promise<T> {
  const { policy, signal } = options;
  const started = policy.now();
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (signal.aborted) throw err;
      const reason = retryReason(err);
      if (!reason) throw err;
      const now = policy.now();
      const left = started + policy.maxMs - now;
      const advised = retryAfterMs(err, now);
      // The server's advice is honoured exactly; our own backoff is clipped to the window's end for a last try.
      // (An advice of 0 counts as none, as in the SDK: retrying at once would only hammer the API.)
      const waitMs = advised !== undefined && advised > 0 ? advised : Math.min(backoffMs(n, policy), Math.max(0, left));
      if (left <= 0 || waitMs > left) throw new ModelRetriesExhausted(err, n, now - started, policy.maxMs);
      options.onWait?.({ attempt: n, waitMs, reason });
      await policy.sleep(waitMs, signal);
    }
  }
}
