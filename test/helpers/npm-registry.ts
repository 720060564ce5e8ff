/**
 * A stand-in npm registry for tests: node:http on 127.0.0.1 (random port) serving, as
 * registry.npmjs.org does, the package document `GET /<name>` (scoped as `/@scope%2fname`) — the
 * abbreviated one ("corgi": versions with `dist`, dependencies, `bin`, `deprecated`, `engines`,
 * `hasInstallScript`, and `modified`; no `time`, people or licence) when the Accept header asks for
 * `application/vnd.npm.install-v1+json`, else the full one — the per-version manifest
 * `GET /<name>/<version>` (or a dist-tag), and tarballs (`/<name>/-/<file>.tgz`) of the versions a
 * test publishes, with `dist.integrity`/`dist.shasum` computed from the bytes; anything else is a
 * 404 with npm's JSON error. Every request is recorded (path, accept, authorization) so a test can
 * prove what was asked and where, and a path can be made to fail (404/500), hang, redirect or send
 * more bytes than the size cap.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { packageTarball, sha1Hex, sha512Integrity, type TarEntry } from "./npm-tarball.js";

export interface RecordedRegistryRequest {
  method: string;
  /** The raw path as sent, e.g. `/@scope%2fname` or `/left-pad/-/left-pad-1.0.0.tgz`. */
  url: string;
  /** The Accept header as sent. */
  accept?: string;
  authorization?: string;
  status: number;
  /** What a 200 answered: a document (`full` or `abbreviated`), a version's `manifest`, a `tarball`. */
  served?: "full" | "abbreviated" | "manifest" | "tarball";
}

export interface PublishOptions {
  name: string;
  version: string;
  /** Fields of the package.json inside the tarball (name and version are added). */
  manifest?: Record<string, unknown>;
  /** Files besides package.json, under `package/`. */
  files?: Record<string, string | Buffer>;
  /** Raw entries appended after the files (symlinks, `../` paths). */
  extraEntries?: TarEntry[];
  /** The exact tarball bytes, instead of building one from manifest and files. */
  tarball?: Buffer;
  /** `_npmUser.name` of this version. */
  publisher?: string;
  maintainers?: string[];
  deprecated?: string;
  /** `time[version]`, ISO; default 2020-01-01. */
  publishedAt?: string;
  /** `dist.tarball` in the document; default this registry's own URL. */
  distTarball?: string;
  /** `dist.integrity` in the document; default the tarball's real one; null: none (a publish before 2017 has only `shasum`). */
  distIntegrity?: string | null;
}

export interface PublishedVersion {
  tarball: Buffer;
  integrity: string;
  shasum: string;
  /** Path of the tarball on this registry, e.g. `/@s/a/-/a-1.0.0.tgz`. */
  tarballPath: string;
}

export type Behaviour =
  | { status: number }
  | { delayMs: number }
  | { bytes: number; chunked?: boolean }
  | { redirect: string };

export interface NpmRegistryStandIn {
  /** Base URL with a trailing slash, e.g. `http://127.0.0.1:41234/`. */
  url: string;
  requests: RecordedRegistryRequest[];
  publish(options: PublishOptions): PublishedVersion;
  /** Make requests to a path (as recorded, e.g. `/left-pad` or a tarball path) behave so from now on. */
  behave(path: string, behaviour: Behaviour): void;
  /** Requests for tarballs (paths containing `/-/`). */
  tarballRequests(): RecordedRegistryRequest[];
  /** Requests answered with a full package document (not the abbreviated one, not a version's manifest). */
  fullDocumentRequests(): RecordedRegistryRequest[];
  close(): Promise<void>;
}

interface PackageEntry {
  versions: Record<string, Record<string, unknown>>;
  time: Record<string, string>;
}

const unscoped = (name: string) => name.slice(name.lastIndexOf("/") + 1);

function versionDocument(options: PublishOptions, manifest: Record<string, unknown>, url: string, published: PublishedVersion) {
  return {
    ...manifest,
    _id: `${options.name}@${options.version}`,
    ...(options.publisher ? { _npmUser: { name: options.publisher, email: `${options.publisher}@example.test` } } : {}),
    ...(options.maintainers ? { maintainers: options.maintainers.map((name) => ({ name, email: `${name}@example.test` })) } : {}),
    ...(options.deprecated ? { deprecated: options.deprecated } : {}),
    dist: {
      tarball: options.distTarball ?? new URL(published.tarballPath.slice(1), url).href,
      ...(options.distIntegrity === null ? {} : { integrity: options.distIntegrity ?? published.integrity }),
      shasum: published.shasum,
    },
  };
}

/** What the abbreviated document keeps of a version (npm's list; `hasInstallScript` computed as npm does). */
const ABBREVIATED_FIELDS = ["name", "version", "deprecated", "dependencies", "optionalDependencies", "devDependencies", "bundleDependencies", "peerDependencies", "bin", "directories", "dist", "engines", "_hasShrinkwrap"];
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall"];
export const ABBREVIATED = "application/vnd.npm.install-v1+json";

function abbreviatedVersion(version: Record<string, unknown>): Record<string, unknown> {
  const kept = Object.fromEntries(ABBREVIATED_FIELDS.filter((field) => version[field] !== undefined).map((field) => [field, version[field]]));
  const scripts = (version["scripts"] ?? {}) as Record<string, unknown>;
  return INSTALL_SCRIPTS.some((script) => typeof scripts[script] === "string") ? { ...kept, hasInstallScript: true } : kept;
}

/** Whether an Accept header asks for the abbreviated document (named with a q above 0). */
function wantsAbbreviated(accept: string | undefined): boolean {
  return (accept ?? "").split(",").some((part) => {
    const [type, ...params] = part.split(";").map((p) => p.trim());
    const q = params.find((p) => p.startsWith("q="));
    return type === ABBREVIATED && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** `/left-pad`, `/@s%2fa`, `/@s/a`, each optionally followed by `/<version or tag>`. */
function route(url: string): { name: string; version?: string } | undefined {
  const parts = url.split("?")[0]!.slice(1).split("/").map((part) => decodeURIComponent(part));
  const scopedWhole = parts[0]!.startsWith("@") && parts[0]!.includes("/");
  const name = parts[0]!.startsWith("@") && !scopedWhole ? `${parts[0]}/${parts[1] ?? ""}` : parts[0]!;
  const rest = parts.slice(parts[0]!.startsWith("@") && !scopedWhole ? 2 : 1);
  if (rest.length > 1 || name === "") return undefined;
  return { name, ...(rest[0] ? { version: rest[0] } : {}) };
}

function send(res: http.ServerResponse, status: number, body: string | Buffer, type: string): void {
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body), vary: "Accept" });
  res.end(body);
}

/** Writes `bytes` of zeros in 64 KiB chunks, with or without a Content-Length. */
function sendBytes(res: http.ServerResponse, bytes: number, chunked: boolean): void {
  res.writeHead(200, { "content-type": "application/octet-stream", ...(chunked ? {} : { "content-length": bytes }) });
  const chunk = Buffer.alloc(64 * 1024);
  let left = bytes;
  const pump = (): void => {
    while (left > 0) {
      const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= piece.length;
      if (!res.write(piece)) return void res.once("drain", pump);
    }
    res.end();
  };
  res.on("close", () => (left = 0));
  pump();
}

export async function startNpmRegistry(): Promise<NpmRegistryStandIn> {
  const packages = new Map<string, PackageEntry>();
  const tarballs = new Map<string, Buffer>();
  const behaviours = new Map<string, Behaviour>();
  const requests: RecordedRegistryRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  /** The document, a version's manifest or a tarball at `url`, as the registry answers it. */
  function answer(url: string, accept: string | undefined, record: RecordedRegistryRequest, res: http.ServerResponse): void {
    const tarball = tarballs.get(url);
    if (tarball) return (record.served = "tarball"), send(res, 200, tarball, "application/octet-stream");
    const target = route(url);
    const entry = target && packages.get(target.name);
    if (!target || !entry) return send(res, 404, '{"error":"Not found"}', "application/json");
    const versions = Object.keys(entry.versions);
    const tags: Record<string, string> = { latest: versions.at(-1)! };
    if (target.version !== undefined) {
      const manifest = entry.versions[tags[target.version] ?? target.version];
      if (!manifest) return send(res, 404, JSON.stringify(`version not found: ${target.version}`), "application/json");
      return (record.served = "manifest"), send(res, 200, JSON.stringify(manifest), "application/json");
    }
    const modified = Object.values(entry.time).sort().at(-1)!;
    if (wantsAbbreviated(accept)) {
      const abbreviated = Object.fromEntries(Object.entries(entry.versions).map(([v, doc]) => [v, abbreviatedVersion(doc)]));
      record.served = "abbreviated";
      return send(res, 200, JSON.stringify({ name: target.name, modified, "dist-tags": tags, versions: abbreviated }), ABBREVIATED);
    }
    const created = Object.values(entry.time).sort()[0]!;
    const latest = entry.versions[tags.latest!]!;
    const doc = { _id: target.name, name: target.name, "dist-tags": tags, versions: entry.versions, time: { created, modified, ...entry.time }, maintainers: latest["maintainers"] ?? [] };
    record.served = "full";
    send(res, 200, JSON.stringify(doc), "application/json");
  }

  const server = http.createServer((req, res) => {
    const url = req.url ?? "/";
    const accept = req.headers.accept;
    const record: RecordedRegistryRequest = { method: req.method ?? "GET", url, status: 0, ...(accept ? { accept } : {}), ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) };
    requests.push(record);
    res.on("finish", () => (record.status = res.statusCode));
    const behaviour = behaviours.get(url);
    if (behaviour && "status" in behaviour) return send(res, behaviour.status, `{"error":"stand-in ${behaviour.status}"}`, "application/json");
    if (behaviour && "redirect" in behaviour) {
      res.writeHead(302, { location: behaviour.redirect });
      return void res.end();
    }
    if (behaviour && "bytes" in behaviour) return sendBytes(res, behaviour.bytes, behaviour.chunked ?? false);
    if (behaviour && "delayMs" in behaviour) {
      const timer = setTimeout(() => (timers.delete(timer), answer(url, accept, record, res)), behaviour.delayMs);
      timers.add(timer);
      return;
    }
    answer(url, accept, record, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  return {
    url: base,
    requests,
    publish(options) {
      const manifest = { name: options.name, version: options.version, ...options.manifest };
      const tarball = options.tarball ?? packageTarball({ "package.json": JSON.stringify(manifest, null, 2), ...options.files }, options.extraEntries);
      const tarballPath = `/${options.name}/-/${unscoped(options.name)}-${options.version}.tgz`;
      const published: PublishedVersion = { tarball, integrity: sha512Integrity(tarball), shasum: sha1Hex(tarball), tarballPath };
      tarballs.set(tarballPath, tarball);
      const entry = packages.get(options.name) ?? { versions: {}, time: {} };
      entry.versions[options.version] = versionDocument(options, manifest, base, published);
      entry.time[options.version] = options.publishedAt ?? "2020-01-01T00:00:00.000Z";
      packages.set(options.name, entry);
      return published;
    },
    behave: (path, behaviour) => void behaviours.set(path, behaviour),
    tarballRequests: () => requests.filter((r) => r.url.includes("/-/")),
    fullDocumentRequests: () => requests.filter((r) => r.served === "full"),
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
