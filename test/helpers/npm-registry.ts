/**
 * A stand-in npm registry for tests: node:http on 127.0.0.1 (random port) serving the package
 * documents (`GET /<name>`, scoped as `/@scope%2fname`) and tarballs (`/<name>/-/<file>.tgz`) of
 * the versions a test publishes, with `dist.integrity`/`dist.shasum` computed from the bytes.
 * Every request is recorded (path, authorization) so a test can prove where requests went, and a
 * path can be made to fail (404/500), hang, redirect or send more bytes than the size cap.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { packageTarball, sha1Hex, sha512Integrity, type TarEntry } from "./npm-tarball.js";

export interface RecordedRegistryRequest {
  method: string;
  /** The raw path as sent, e.g. `/@scope%2fname` or `/left-pad/-/left-pad-1.0.0.tgz`. */
  url: string;
  authorization?: string;
  status: number;
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
  /** `dist.integrity` in the document; default the tarball's real one. */
  distIntegrity?: string;
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
    ...(options.publisher ? { _npmUser: { name: options.publisher, email: `${options.publisher}@example.test` } } : {}),
    ...(options.maintainers ? { maintainers: options.maintainers.map((name) => ({ name, email: `${name}@example.test` })) } : {}),
    ...(options.deprecated ? { deprecated: options.deprecated } : {}),
    dist: {
      tarball: options.distTarball ?? new URL(published.tarballPath.slice(1), url).href,
      integrity: options.distIntegrity ?? published.integrity,
      shasum: published.shasum,
    },
  };
}

function send(res: http.ServerResponse, status: number, body: string | Buffer, type: string): void {
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) });
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

  const server = http.createServer((req, res) => {
    const url = req.url ?? "/";
    const record: RecordedRegistryRequest = { method: req.method ?? "GET", url, status: 0, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) };
    requests.push(record);
    res.on("finish", () => (record.status = res.statusCode));
    const behaviour = behaviours.get(url);
    if (behaviour && "status" in behaviour) return send(res, behaviour.status, `{"error":"stand-in ${behaviour.status}"}`, "application/json");
    if (behaviour && "redirect" in behaviour) {
      res.writeHead(302, { location: behaviour.redirect });
      return void res.end();
    }
    if (behaviour && "bytes" in behaviour) return sendBytes(res, behaviour.bytes, behaviour.chunked ?? false);
    const answer = () => {
      const tarball = tarballs.get(url);
      if (tarball) return send(res, 200, tarball, "application/octet-stream");
      const entry = packages.get(decodeURIComponent(url.slice(1)));
      if (!entry) return send(res, 404, '{"error":"Not found"}', "application/json");
      const versions = Object.keys(entry.versions);
      const doc = { name: decodeURIComponent(url.slice(1)), "dist-tags": { latest: versions.at(-1) }, versions: entry.versions, time: entry.time };
      send(res, 200, JSON.stringify(doc), "application/json");
    };
    if (behaviour && "delayMs" in behaviour) {
      const timer = setTimeout(() => (timers.delete(timer), answer()), behaviour.delayMs);
      timers.add(timer);
      return;
    }
    answer();
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
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
