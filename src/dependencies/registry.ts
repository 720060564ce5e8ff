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
import { boundedGet, NetError, readCapped, seconds } from "../net/bounded-get.js";
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

export function registryClient(options: RegistryClientOptions): RegistryClient {
  const base = options.settings.url;
  const origin = new URL(base).origin;
  const timeoutMs = options.timeoutMs ?? 30_000;

  /** One GET on the registry's origin, following redirects only within it (net/bounded-get.ts), its body capped and charged to the budget. */
  async function get(url: string, accept: string, max: number, what: string): Promise<Buffer> {
    options.signal?.throwIfAborted();
    options.budget?.check();
    const budget = options.budget;
    const charge = budget && { declared: (bytes: number) => bytes > budget.remaining && budget.charge(bytes), chunk: (bytes: number) => budget.charge(bytes) };
    const request = { ...(options.signal ? { signal: options.signal } : {}), ...(options.fetch ? { fetch: options.fetch } : {}) };
    try {
      const response = await boundedGet(url, { headers: { accept, "user-agent": "crewbot (dependency review)" }, ...(options.settings.token ? { token: options.settings.token } : {}), timeoutMs, ...request, redirects: { origin, max: MAX_REDIRECTS } });
      return await readCapped(response, max, charge);
    } catch (error) {
      throw failure(error, what, max);
    }
  }

  /** The client's failure in the review's words ("the registry answered 404 for the document of `x`"). */
  function failure(error: unknown, what: string, max: number): Error {
    if (error instanceof BudgetSpent || options.signal?.aborted) return error as Error;
    const reason = error instanceof NetError ? error.reason : "unreachable";
    switch (reason) {
      case "other-host":
        return new RegistryError(`the registry sent ${what} to another host (${(error as NetError).detail?.host}); not followed`);
      case "redirects":
        return new RegistryError(`the registry redirected ${what} more than ${MAX_REDIRECTS} times`);
      case "status":
        return new RegistryError(`the registry answered ${(error as NetError).detail?.status} for ${what}`, (error as NetError).detail?.status);
      case "too-large":
        return new RegistryError(`${what} is over ${Math.round(max / (1024 * 1024))} MB`);
      case "timeout":
        return new RegistryError(`the registry did not send ${what} within ${seconds(timeoutMs)}`);
      case "unreachable":
        return new RegistryError(`the registry could not be reached for ${what} (${error instanceof NetError ? error.detail?.cause : (error as Error).message})`);
    }
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
