/**
 * crewbot's one HTTP client for requests off GitHub's API (the operator's npm registry, a check's
 * log storage): a GET with a time limit over the whole request, body included; a redirect rule —
 * followed by hand within one origin (the first address must be there too) and at most `max`
 * times, or, for a
 * short-lived storage address GitHub hands out, by the platform to any http(s) host; a token sent
 * only to the one origin requests may reach; and a body read under a byte cap. Errors say why in a `NetError` whose `reason` the caller words for its reader.
 */

export type NetFailure = "other-host" | "redirects" | "status" | "timeout" | "unreachable" | "too-large";

export class NetError extends Error {
  override name = "NetError";
  constructor(
    readonly reason: NetFailure,
    message: string,
    /** The HTTP status that refused it (`status`), the host it was aimed at (`other-host`), the transport's words (`unreachable`). */
    readonly detail?: { status?: number; host?: string; cause?: string },
  ) {
    super(message);
  }
}

export interface BoundedGetOptions {
  headers?: Record<string, string>;
  /** Sent as `authorization: Bearer …`; only with `redirects.origin`, every request of which stays there. */
  token?: string;
  /** The whole request, body included. */
  timeoutMs: number;
  /** The caller's own abort: passed through as it is, never worded as a timeout. */
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /** `origin`: every request there (an address elsewhere is refused), redirects followed by hand; `any`: the platform follows them, no token. */
  redirects: { origin: string; max: number } | "any";
}

/** A GET answered 2xx, its body not yet read (read it with `readCapped`, or stream it). */
export async function boundedGet(start: string | URL, options: BoundedGetOptions): Promise<Response> {
  options.signal?.throwIfAborted();
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const doFetch = options.fetch ?? fetch;
  try {
    if (options.redirects === "any") return await answered(await doFetch(start, { headers: options.headers, redirect: "follow", signal }));
    const { max } = options.redirects;
    const origin = new URL(options.redirects.origin).origin;
    const headers = { ...options.headers, ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) };
    let url = new URL(start).href;
    for (let hop = 0; ; hop++) {
      const host = new URL(url);
      if (host.origin !== origin) throw new NetError("other-host", `redirected to another host (${host.host}); not followed`, { host: host.host });
      const response = await doFetch(url, { headers, redirect: "manual", signal });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (hop >= max) throw new NetError("redirects", `redirected more than ${max} times`);
        url = new URL(location, url).href;
        continue;
      }
      return await answered(response);
    }
  } catch (error) {
    if (error instanceof NetError || options.signal?.aborted) throw error;
    if (timeout.aborted) throw new NetError("timeout", `no answer within ${seconds(options.timeoutMs)}`);
    throw new NetError("unreachable", `could not be reached (${(error as Error).message})`, { cause: (error as Error).message });
  }
}

async function answered(response: Response): Promise<Response> {
  if (response.ok) return response;
  await response.body?.cancel();
  throw new NetError("status", `answered ${response.status}`, { status: response.status });
}

export const seconds = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);
const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * The body, refusing more than `max` bytes while it streams (a Content-Length above it is refused
 * at once). `charge` sees the declared length first and then every chunk; it may throw to stop.
 */
export async function readCapped(response: Response, max: number, charge?: { declared(bytes: number): void; chunk(bytes: number): void }): Promise<Buffer> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared > max || !response.body) {
    await response.body?.cancel();
    if (declared > max) throw new NetError("too-large", `over ${megabytes(max)}`);
    return Buffer.alloc(0);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    if (declared >= 0) charge?.declared(declared);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > max) throw new NetError("too-large", `over ${megabytes(max)}`);
      charge?.chunk(value.byteLength);
      chunks.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    // The request's time limit ran out while the body streamed: the same failure as before the answer.
    if ((error as Error).name === "TimeoutError") throw new NetError("timeout", "the answer did not arrive in time");
    throw error;
  }
  return Buffer.concat(chunks);
}
