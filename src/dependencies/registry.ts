/**
 * A small client for the operator's npm registry (`CREWBOT_NPM_REGISTRY`). Every URL it requests
 * is built from that registry's base: the package document `<registry>/<name>` (abbreviated, as
 * npm asks for it, or full), a version's manifest `<registry>/<name>/<version>` and the tarball
 * `<registry>/<name>/-/<file>.tgz` (the document's `dist.tarball` only when it has the registry's
 * origin) — never a lockfile's `resolved` or anything else from the repository, which would let a
 * pull request aim the app's own requests anywhere. The token goes to that origin only; requests
 * time out, redirects leave nothing but the same origin, and bodies are capped while streaming,
 * each by its own cap and all by the review's byte budget.
 */
import { BudgetSpent, type ByteBudget } from "./byte-budget.js";
import type { RegistrySettings } from "./types.js";

export const DEFAULT_REGISTRY = "https://registry.npmjs.org/";
export const MAX_TARBALL_BYTES = 20 * 1024 * 1024;
const MAX_DOCUMENT_BYTES = 100 * 1024 * 1024;
/** A version's manifest is one package.json plus the registry's fields. */
const MAX_MANIFEST_BYTES = 5 * 1024 * 1024;
const MAX_REDIRECTS = 3;
/** npm's own Accept for documents: the abbreviated ("corgi") one, else whatever JSON the registry has. */
export const ABBREVIATED_ACCEPT = "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*";

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

/** `<registry>/<name>/<version>`: one version's manifest (scoped as `@scope%2fname/<version>`). */
export function versionManifestUrl(registry: string, name: string, version: string): string {
  if (!/^[0-9A-Za-z.+-]+$/.test(version)) throw new RegistryError(`\`${version}\` is not a version`);
  return `${packageDocumentUrl(registry, name)}/${version}`;
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
  constructor(
    message: string,
    /** The HTTP status that refused it, when one did. */
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface RegistryClientOptions {
  settings: RegistrySettings;
  /** Per request, body included (30 s). */
  timeoutMs?: number;
  maxTarballBytes?: number;
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /** Charged with every body byte read; once spent, no request is sent. */
  budget?: ByteBudget;
}

export interface RegistryClient {
  /** The abbreviated package document (versions with `dist`, `deprecated`; `modified`), parsed. */
  abbreviated(name: string): Promise<unknown>;
  /** The full package document (`versions` with people, `time`, …), parsed. */
  document(name: string): Promise<unknown>;
  /** One version's full manifest (`_npmUser`, `maintainers`, …), parsed. */
  manifest(name: string, version: string): Promise<unknown>;
  /** The tarball's bytes, from `url` (which the caller got from `tarballUrl`). */
  tarball(url: string): Promise<Buffer>;
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * The body, refusing more than `max` bytes while it streams (a Content-Length above it is refused
 * at once), each chunk charged to the budget (a Content-Length above what is left is refused too).
 */
async function readCapped(response: Response, max: number, what: string, budget: ByteBudget | undefined): Promise<Buffer> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared > max || !response.body) {
    await response.body?.cancel();
    if (declared > max) throw new RegistryError(`${what} is over ${megabytes(max)}`);
    return Buffer.alloc(0);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    // Declared over what is left: spent now, as reading it would spend it.
    if (budget && declared > budget.remaining) budget.charge(declared);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > max) throw new RegistryError(`${what} is over ${megabytes(max)}`);
      budget?.charge(value.byteLength);
      chunks.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
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
    options.signal?.throwIfAborted();
    options.budget?.check();
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
          throw new RegistryError(`the registry answered ${response.status} for ${what}`, response.status);
        }
        return await readCapped(response, max, what, options.budget);
      } catch (error) {
        throw failure(error, signal, what);
      }
    }
  }

  function failure(error: unknown, signal: AbortSignal, what: string): Error {
    if (error instanceof RegistryError || error instanceof BudgetSpent) return error;
    if (options.signal?.aborted) return error as Error;
    if (signal.aborted) return new RegistryError(`the registry did not send ${what} within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}`);
    return new RegistryError(`the registry could not be reached for ${what} (${(error as Error).message})`);
  }

  async function json(url: string, accept: string, max: number, what: string): Promise<unknown> {
    const body = await get(url, accept, max, what);
    try {
      return JSON.parse(body.toString("utf8")) as unknown;
    } catch {
      throw new RegistryError(`the registry's ${what.replace(/^the /, "")} is not JSON`);
    }
  }

  return {
    abbreviated: (name) => json(packageDocumentUrl(base, name), ABBREVIATED_ACCEPT, MAX_DOCUMENT_BYTES, `the document of \`${name}\``),
    document: (name) => json(packageDocumentUrl(base, name), "application/json", MAX_DOCUMENT_BYTES, `the full document of \`${name}\``),
    manifest: (name, version) => json(versionManifestUrl(base, name, version), "application/json", MAX_MANIFEST_BYTES, `the manifest of \`${name}@${version}\``),
    tarball: (url) => get(url, "application/octet-stream", options.maxTarballBytes ?? MAX_TARBALL_BYTES, "its tarball"),
  };
}
