/**
 * Inspects the changed packages: for each (up to `maxPackages`, direct ones first) the registry
 * document and both tarballs from the operator's registry, verified against the lockfile's
 * integrity (else the document's), read in memory and compared. Every change gets a report;
 * whatever goes wrong for one package becomes its "not inspected" reason, never an exception.
 */
import { createRequire } from "node:module";
import { compareVersions, versionMeta, code } from "./compare.js";
import { integrityAlgorithm, strongestHashes } from "./integrity.js";
import { RegistryError, registryClient, tarballUrl, type RegistryClient } from "./registry.js";
import { readTarball, type TarballReading } from "./tarball.js";
import { verifiedTarball } from "./tarball-cache.js";
import type { DependencyFact, DependencyReview, LockedVersion, PackageChange, PackageReport, RegistrySettings } from "./types.js";

/** The parts of `semver` (npm's own version rules) used here. */
interface Semver {
  valid(version: string): string | null;
  validRange(range: string): string | null;
  maxSatisfying(versions: readonly string[], range: string): string | null;
}
const semver = createRequire(import.meta.url)("semver") as Semver;

export interface InspectOptions {
  registry: RegistrySettings;
  /** Where verified tarballs are kept (`<data dir>/npm-tarballs`). */
  cacheDir: string;
  maxPackages: number;
  signal?: AbortSignal;
  log: { warn(message: string): void };
  now?: () => number;
  fetch?: typeof fetch;
  /** Per registry request (30 s). */
  timeoutMs?: number;
  /** Per tarball (20 MB). */
  maxTarballBytes?: number;
  /** Packages inspected at once (4). */
  concurrency?: number;
}

type Resolved = { version: string } | { notInspected: string };
type Reading = TarballReading | { ok: false; notInspected: string };
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The changes to inspect, at most `max`: direct ones first, then transitive, each in their order. */
export function chooseInspected(changes: readonly PackageChange[], max: number): Set<PackageChange> {
  const inspectable = changes.filter((c) => c.new && !c.new.nonRegistry);
  return new Set([...inspectable.filter((c) => c.direct), ...inspectable.filter((c) => !c.direct)].slice(0, Math.max(0, max)));
}

/** The published version a lockfile pins, or the highest one a manifest's range (or dist-tag) allows. */
export function resolveVersion(locked: LockedVersion, source: PackageChange["source"], document: Record<string, unknown>): Resolved {
  const versions = isRecord(document["versions"]) ? Object.keys(document["versions"]) : [];
  if (source === "lockfile") return semver.valid(locked.version) === locked.version ? { version: locked.version } : { notInspected: `${code(locked.version)} is not a published version` };
  const tags = isRecord(document["dist-tags"]) ? document["dist-tags"] : {};
  const tagged = tags[locked.version];
  if (typeof tagged === "string") return { version: tagged };
  if (semver.validRange(locked.version) === null) return { notInspected: `${code(locked.version)} is not a registry version range` };
  const best = semver.maxSatisfying(versions, locked.version);
  return best ? { version: best } : { notInspected: `no published version satisfies ${code(locked.version)}` };
}

/** One inspection run: documents and tarball readings asked for twice are fetched once. */
class Session {
  private readonly documents = new Map<string, Promise<unknown>>();
  private readonly readings = new Map<string, Promise<Reading>>();
  constructor(
    private readonly client: RegistryClient,
    private readonly options: InspectOptions,
  ) {}

  document(name: string): Promise<unknown> {
    let document = this.documents.get(name);
    if (!document) this.documents.set(name, (document = this.client.document(name)));
    return document;
  }

  contents(name: string, version: string, lockIntegrity: string | undefined, document: Record<string, unknown>): Promise<Reading> {
    const key = `${name}@${version} ${lockIntegrity ?? ""}`;
    let reading = this.readings.get(key);
    if (!reading) this.readings.set(key, (reading = this.read(name, version, lockIntegrity, document)));
    return reading;
  }

  private async read(name: string, version: string, lockIntegrity: string | undefined, document: Record<string, unknown>): Promise<Reading> {
    const entry = isRecord(document["versions"]) ? document["versions"][version] : undefined;
    if (!isRecord(entry)) return { ok: false, notInspected: `the registry has no version ${version} of it` };
    const dist = isRecord(entry["dist"]) ? entry["dist"] : {};
    const documented = typeof dist["integrity"] === "string" ? dist["integrity"] : typeof dist["shasum"] === "string" ? `sha1-${Buffer.from(dist["shasum"], "hex").toString("base64")}` : undefined;
    const integrity = lockIntegrity ?? documented;
    if (integrity === undefined || strongestHashes(integrity).length === 0) return { ok: false, notInspected: `no integrity (from the lockfile or the registry) to check the tarball of ${version} against` };
    const url = tarballUrl(this.options.registry.url, name, version, dist["tarball"]);
    const verified = await verifiedTarball(this.options.cacheDir, {
      integrity,
      ...(documented ? { alsoKnownAs: documented } : {}),
      fetch: () => this.client.tarball(url),
      onCacheError: (error) => this.options.log.warn(`dependency review: could not cache the tarball of ${name}@${version}: ${error.message}`),
    });
    if (!verified.ok) return { ok: false, fact: mismatchFact(name, version, lockIntegrity ? "the lockfile's" : "the registry document's", integrity) };
    return readTarball(verified.bytes);
  }
}

function mismatchFact(name: string, version: string, whose: string, integrity: string): DependencyFact {
  return {
    kind: "integrity-mismatch",
    severity: "critical",
    text: `the registry's tarball of ${code(`${name}@${version}`)} does not match ${whose} integrity (${integrityAlgorithm(integrity)}): it is not the package that was pinned, so it is not compared`,
  };
}

/** The facts of one change, or why it could not be inspected. */
async function inspectOne(change: PackageChange, session: Session, now: number): Promise<Omit<PackageReport, "change">> {
  const document = await session.document(change.name);
  if (!isRecord(document) || !isRecord(document["versions"])) return { facts: [], notInspected: `the registry's document of ${code(change.name)} lists no versions` };
  const after = resolveVersion(change.new!, change.source, document);
  if ("notInspected" in after) return { facts: [], notInspected: after.notInspected };
  const before = change.old && !change.old.nonRegistry ? resolveVersion(change.old, change.source, document) : undefined;
  if (before && "notInspected" in before) return { facts: [], notInspected: `the old version: ${before.notInspected}` };
  const newReading = await session.contents(change.name, after.version, change.source === "lockfile" ? change.new!.integrity : undefined, document);
  if (!newReading.ok) return "fact" in newReading ? { facts: [newReading.fact] } : { facts: [], notInspected: newReading.notInspected };
  const oldReading = before ? await session.contents(change.name, before.version, change.source === "lockfile" ? change.old!.integrity : undefined, document) : undefined;
  if (oldReading && !oldReading.ok) return "fact" in oldReading ? { facts: [oldReading.fact] } : { facts: [], notInspected: `the old version: ${oldReading.notInspected}` };
  const facts = compareVersions({
    name: change.name,
    ...(oldReading?.ok ? { old: oldReading.contents } : {}),
    new: newReading.contents,
    ...(before ? { oldMeta: versionMeta(document, before.version) } : {}),
    newMeta: versionMeta(document, after.version),
    now,
  });
  return { facts };
}

async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

/** Every change's report, in the changes' order; nothing here throws for a package's sake. */
export async function inspectDependencies(changes: readonly PackageChange[], options: InspectOptions): Promise<DependencyReview> {
  const client = registryClient({
    settings: options.registry,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.maxTarballBytes ? { maxTarballBytes: options.maxTarballBytes } : {}),
  });
  const session = new Session(client, options);
  const chosen = chooseInspected(changes, options.maxPackages);
  const now = (options.now ?? Date.now)();
  const reports = new Map<PackageChange, PackageReport>();
  for (const change of changes) {
    const why = !change.new ? "removed" : change.new.nonRegistry ? `${change.new.nonRegistry}, not from a registry: not fetched` : chosen.has(change) ? undefined : `over review.dependencies.maxPackages (${options.maxPackages})`;
    if (why) reports.set(change, { change, facts: [], notInspected: why });
  }
  await eachLimited([...chosen], options.concurrency ?? 4, async (change) => {
    try {
      reports.set(change, { change, ...(await inspectOne(change, session, now)) });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const reason = error instanceof RegistryError ? error.message : `it could not be inspected (${(error as Error).message})`;
      options.log.warn(`dependency review: ${change.name}@${change.new?.version}: ${reason}`);
      reports.set(change, { change, facts: [], notInspected: reason });
    }
  });
  return { packages: changes.map((change) => reports.get(change)!) };
}
