/**
 * A small client for the operator's npm registry (`CREWBOT_NPM_REGISTRY`). Every URL it requests
 * is built from that registry's base: the package document `<registry>/<name>` and the tarball
 * `<registry>/<name>/-/<file>.tgz` (the document's `dist.tarball` only when it has the registry's
 * origin) — never a lockfile's `resolved` or anything else from the repository, which would let a
 * pull request aim the app's own requests anywhere. The token goes to that origin only; requests
 * time out, redirects leave nothing but the same origin, and bodies are capped while streaming.
 */
import type { RegistrySettings } from "./types.js";

export const DEFAULT_REGISTRY = "https://registry.npmjs.org/";
export const MAX_TARBALL_BYTES = 20 * 1024 * 1024;
const MAX_DOCUMENT_BYTES = 100 * 1024 * 1024;
const MAX_REDIRECTS = 3;

/** The registry settings from the operator's environment; a bad `CREWBOT_NPM_REGISTRY` throws, naming it. */
export function registrySettings(env: Record<string, string | undefined>): RegistrySettings {
  const raw = env["CREWBOT_NPM_REGISTRY"]?.trim() || DEFAULT_REGISTRY;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`CREWBOT_NPM_REGISTRY is not a URL: ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`CREWBOT_NPM_REGISTRY must be an http(s) URL, not ${url.protocol}`);
  if (url.username || url.password) throw new Error("CREWBOT_NPM_REGISTRY must not carry credentials; set CREWBOT_NPM_TOKEN");
  url.search = "";
  url.hash = "";
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  const token = env["CREWBOT_NPM_TOKEN"]?.trim();
  return { url: url.href, ...(token ? { token } : {}) };
}

/** A name npm could have published (validate-npm-package-name's rules, old capitals allowed). */
export const isPackageName = (name: string) => name.length <= 214 && /^(?:@[A-Za-z0-9~-][A-Za-z0-9._~-]*\/)?[A-Za-z0-9~-][A-Za-z0-9._~-]*$/.test(name);

/** `<registry>/<name>`, a scoped name as `@scope%2fname` (as npm asks). */
export function packageDocumentUrl(registry: string, name: string): string {
  if (!isPackageName(name)) throw new RegistryError(`\`${name}\` is not a valid npm package name`);
  return new URL(name.replace("/", "%2f"), registry).href;
}

/** `<registry>/<name>/-/<unscoped name>-<version>.tgz`, the layout every npm registry serves. */
export function builtTarballUrl(registry: string, name: string, version: string): string {
  if (!isPackageName(name)) throw new RegistryError(`\`${name}\` is not a valid npm package name`);
  if (!/^[0-9A-Za-z.+-]+$/.test(version)) throw new RegistryError(`\`${version}\` is not a version`);
  return new URL(`${name}/-/${name.slice(name.lastIndexOf("/") + 1)}-${version}.tgz`, registry).href;
}

/** The document's `dist.tarball` when it lives on the registry's own origin (mirrors lay tarballs out their way), else the built URL. */
export function tarballUrl(registry: string, name: string, version: string, distTarball: unknown): string {
  const built = builtTarballUrl(registry, name, version);
  if (typeof distTarball !== "string") return built;
  try {
    const url = new URL(distTarball);
    return url.origin === new URL(registry).origin && !url.username && !url.password ? url.href : built;
  } catch {
    return built;
  }
}

/** Why a request to the registry gave nothing usable, in words for the review ("the registry answered 404"). */
export class RegistryError extends Error {
  override name = "RegistryError";
}

export interface RegistryClientOptions {
  settings: RegistrySettings;
  /** Per request, body included (30 s). */
  timeoutMs?: number;
  maxTarballBytes?: number;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

export interface RegistryClient {
  /** The package document (`versions`, `time`, …), parsed. */
  document(name: string): Promise<unknown>;
  /** The tarball's bytes, from `url` (which the caller got from `tarballUrl`). */
  tarball(url: string): Promise<Buffer>;
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** The body, refusing more than `max` bytes while it streams (a Content-Length above it is refused at once). */
async function readCapped(response: Response, max: number, what: string): Promise<Buffer> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared > max || !response.body) {
    await response.body?.cancel();
    if (declared > max) throw new RegistryError(`${what} is over ${megabytes(max)}`);
    return Buffer.alloc(0);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel();
      throw new RegistryError(`${what} is over ${megabytes(max)}`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export function registryClient(options: RegistryClientOptions): RegistryClient {
  const base = options.settings.url;
  const origin = new URL(base).origin;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const doFetch = options.fetch ?? fetch;

  /** One GET on the registry's origin, following redirects only within it. */
  async function get(start: string, accept: string, max: number, what: string): Promise<Buffer> {
    const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
    let url = start;
    for (let hop = 0; ; hop++) {
      if (new URL(url).origin !== origin) throw new RegistryError(`the registry sent ${what} to another host (${new URL(url).host}); not followed`);
      const headers: Record<string, string> = { accept, "user-agent": "crewbot (dependency review)" };
      if (options.settings.token) headers["authorization"] = `Bearer ${options.settings.token}`;
      try {
        const response = await doFetch(url, { headers, redirect: "manual", signal });
        const location = response.headers.get("location");
        if (response.status >= 300 && response.status < 400 && location) {
          await response.body?.cancel();
          if (hop >= MAX_REDIRECTS) throw new RegistryError(`the registry redirected ${what} more than ${MAX_REDIRECTS} times`);
          url = new URL(location, url).href;
          continue;
        }
        if (!response.ok) {
          await response.body?.cancel();
          throw new RegistryError(`the registry answered ${response.status} for ${what}`);
        }
        return await readCapped(response, max, what);
      } catch (error) {
        throw failure(error, signal, what);
      }
    }
  }

  function failure(error: unknown, signal: AbortSignal, what: string): Error {
    if (error instanceof RegistryError) return error;
    if (options.signal?.aborted) return error as Error;
    if (signal.aborted) return new RegistryError(`the registry did not send ${what} within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}`);
    return new RegistryError(`the registry could not be reached for ${what} (${(error as Error).message})`);
  }

  return {
    async document(name) {
      const body = await get(packageDocumentUrl(base, name), "application/json", MAX_DOCUMENT_BYTES, `the document of \`${name}\``);
      try {
        return JSON.parse(body.toString("utf8")) as unknown;
      } catch {
        throw new RegistryError(`the registry's document of \`${name}\` is not JSON`);
      }
    },
    tarball: (url) => get(url, "application/octet-stream", options.maxTarballBytes ?? MAX_TARBALL_BYTES, "its tarball"),
  };
}
