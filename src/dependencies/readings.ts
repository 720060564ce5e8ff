/**
 * Tarball readings for one review's dependency pass. A reading is keyed by what is read —
 * name@version, verified against the hash the registry gives for it — never by a lockfile's
 * string, so junk hashes cannot make one tarball be read twice. It is read once however many
 * changes use it, its bytes are dropped after the parse, and its contents once the last change
 * that uses it is compared. Everything read is charged to the review's byte budget.
 */
import { code } from "./compare.js";
import type { ByteBudget } from "./byte-budget.js";
import { digestOf, distHashes, soleHash, type Algorithm, type IntegrityHash } from "./integrity.js";
import { tarballUrl, type RegistryClient } from "./registry.js";
import { readTarball, type PackageContents, type TarballReading } from "./tarball.js";
import { verifiedTarball } from "./tarball-cache.js";
import type { DependencyFact } from "./types.js";

/** How a test (or a bench) watches what the pass reads and holds. */
export interface InspectMeter {
  /** A tarball is about to be parsed (`name@version`, its bytes). */
  parsed?(key: string, bytes: number): void;
  /** The readings' contents held now, estimated in bytes (after each is added or dropped). */
  held?(bytes: number): void;
}

/** What one review's pass shares: the client, the budget, the cache, the job's signal. */
export interface PassContext {
  client: RegistryClient;
  budget: ByteBudget;
  registryUrl: string;
  cacheDir: string;
  signal?: AbortSignal;
  meter?: InspectMeter;
  warn(message: string): void;
}

export type Reading = { ok: true; contents: PackageContents; digests: Map<Algorithm, string> } | { ok: false; fact: DependencyFact } | { ok: false; notInspected: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The `dist` of a version entry ({} when it has none). */
export const distOf = (entry: Record<string, unknown>) => (isRecord(entry["dist"]) ? entry["dist"] : {});

/** What the registry's hash of a version is, or why it cannot be used (a fact, or a reason). */
export function registryHash(name: string, version: string, entry: Record<string, unknown>): { hash: IntegrityHash } | { ok: false; fact: DependencyFact } | { ok: false; notInspected: string } {
  const pinned = soleHash(distHashes(distOf(entry)));
  if ("hash" in pinned) return pinned;
  if ("none" in pinned) return { ok: false, notInspected: `the registry gives no integrity (sha512, or a shasum) for the tarball of ${code(`${name}@${version}`)}` };
  const { algorithm, count } = pinned.ambiguous;
  const text = `the registry gives ${code(`${name}@${version}`)} ${count} different ${algorithm} hashes: which tarball it publishes cannot be known, so it is not compared`;
  return { ok: false, fact: { kind: "integrity-ambiguous", severity: "critical", text } };
}

/** An estimate of what a reading's contents hold in memory, in bytes. */
function contentsSize(contents: PackageContents): number {
  let size = JSON.stringify(contents.packageJson).length;
  for (const file of [...contents.files, ...contents.unreadCode, ...contents.nativeFiles]) size += file.length;
  for (const [file, text] of contents.code) size += file.length + text.length;
  return size;
}

/** The check npm's own publish guarantees: a tarball's package.json names the package it is published as. */
function manifestFact(name: string, version: string, contents: PackageContents): DependencyFact | undefined {
  const own = contents.packageJson;
  if (own["name"] === name && own["version"] === version) return undefined;
  const names = typeof own["name"] === "string" && typeof own["version"] === "string" ? `names ${code(`${own["name"]}@${own["version"]}`)}` : "does not name a package and version";
  const text = `its tarball's package.json ${names}, not ${code(`${name}@${version}`)}: it is not the package the registry lists under that name and version, so it is not compared`;
  return { kind: "manifest-mismatch", severity: "critical", text, files: ["package.json"] };
}

interface Held {
  reading?: Promise<Reading>;
  users: number;
  /** The algorithms whose digests users need beyond the registry's (a lockfile's sha256, say). */
  algorithms: Set<Algorithm>;
  size: number;
}

/** One review's readings: counted bytes held, for the meter. */
export class Readings {
  private readonly held = new Map<string, Held>();
  private heldBytes = 0;
  constructor(private readonly pass: PassContext) {}

  /** One more change will use this version's reading (and needs these digests of its bytes). */
  expect(name: string, version: string, algorithm?: Algorithm): void {
    const key = `${name}@${version}`;
    const held: Held = this.held.get(key) ?? { users: 0, algorithms: new Set(), size: 0 };
    held.users++;
    if (algorithm) held.algorithms.add(algorithm);
    this.held.set(key, held);
  }

  /** The version's reading: read on first use, then shared. Only for a version `expect`ed. */
  get(name: string, version: string, entry: Record<string, unknown>): Promise<Reading> {
    const held = this.held.get(`${name}@${version}`);
    if (!held) throw new Error(`${name}@${version} was not expected`);
    held.reading ??= this.read(name, version, entry, held);
    return held.reading;
  }

  /** A change that used this version is compared: the last one drops the contents. */
  release(name: string, version: string): void {
    const key = `${name}@${version}`;
    const held = this.held.get(key);
    if (!held || --held.users > 0) return;
    this.held.delete(key);
    this.heldBytes -= held.size;
    this.pass.meter?.held?.(this.heldBytes);
  }

  private async read(name: string, version: string, entry: Record<string, unknown>, held: Held): Promise<Reading> {
    const { pass } = this;
    const registry = registryHash(name, version, entry);
    if (!("hash" in registry)) return registry;
    pass.signal?.throwIfAborted();
    const url = tarballUrl(pass.registryUrl, name, version, distOf(entry)["tarball"]);
    const verified = await verifiedTarball(pass.cacheDir, {
      hash: registry.hash,
      fetch: async () => {
        const bytes = await pass.client.tarball(url);
        pass.signal?.throwIfAborted();
        return bytes;
      },
      admit: (bytes) => {
        pass.budget.check();
        pass.budget.charge(bytes);
      },
      onCacheError: (error) => pass.warn(`could not cache the tarball of ${name}@${version}: ${error.message}`),
    });
    if (!verified.ok) return { ok: false, fact: registryMismatchFact(name, version, registry.hash.algorithm) };
    const digests = new Map<Algorithm, string>([[registry.hash.algorithm, registry.hash.digest]]);
    for (const algorithm of held.algorithms) digests.set(algorithm, digestOf(algorithm, verified.bytes));
    pass.signal?.throwIfAborted();
    pass.meter?.parsed?.(`${name}@${version}`, verified.bytes.length);
    const reading: TarballReading = await readTarball(verified.bytes, pass.signal ? { signal: pass.signal } : {});
    if (!reading.ok) return reading;
    const mismatch = manifestFact(name, version, reading.contents);
    if (mismatch) return { ok: false, fact: mismatch };
    held.size = contentsSize(reading.contents);
    this.heldBytes += held.size;
    pass.meter?.held?.(this.heldBytes);
    return { ok: true, contents: reading.contents, digests };
  }
}

function registryMismatchFact(name: string, version: string, algorithm: Algorithm): DependencyFact {
  const text = `the registry's tarball of ${code(`${name}@${version}`)} does not match the registry's own integrity (${algorithm}): it is not what was published, so it is not compared`;
  return { kind: "integrity-mismatch", severity: "critical", text };
}
