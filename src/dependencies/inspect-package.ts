/**
 * One package's changes in a review: its abbreviated document read once, each change's versions
 * resolved, each lockfile integrity checked against the registry's before any tarball is fetched
 * (as pacote does: the registry's hash for name@version is what counts), both tarballs read —
 * shared with the package's other changes — and compared. The document is not kept past the
 * package; each reading is dropped once the last change using it is compared.
 */
import { compareVersions, code } from "./compare.js";
import { comparedWith, distHashes, parseHashes, soleHash, type Algorithm, type IntegrityHash } from "./integrity.js";
import { PackageMeta } from "./registry-meta.js";
import { distOf, registryHash, type PassContext, type Readings } from "./readings.js";
import { resolveVersion } from "./resolve-version.js";
import type { DependencyFact, PackageChange, PackageReport } from "./types.js";

export type Outcome = Omit<PackageReport, "change">;
export type Settled = { outcome: Outcome } | { error: unknown };

export interface PackagePass extends PassContext {
  readings: Readings;
  /** ms since epoch, for the age of releases. */
  now: number;
}

/** A change ready to be read: its resolved versions and the lockfile's hash of each side, when it has one. */
interface Plan {
  after: string;
  before?: string;
  newLock?: LockHash;
  oldLock?: LockHash;
}

/** A lockfile's hash of one side, and whether only the bytes can tell it agrees with the registry's. */
interface LockHash {
  hash: IntegrityHash;
  byBytes: boolean;
}

type Side = { ok: true; lock?: LockHash } | { ok: false; fact: DependencyFact } | { ok: false; notInspected: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const outcomeOf = (side: { fact: DependencyFact } | { notInspected: string }, prefix = ""): Outcome => ("fact" in side ? { facts: [side.fact] } : { facts: [], notInspected: `${prefix}${side.notInspected}` });

function lockMismatchFact(name: string, version: string, algorithm: Algorithm): DependencyFact {
  const text = `the lockfile's integrity (${algorithm}) for ${code(`${name}@${version}`)} is not the registry's: the lockfile pins a tarball the registry does not serve under that name and version, so it is not compared`;
  return { kind: "integrity-mismatch", severity: "critical", text };
}

/** One side's integrity, from the document alone: the registry's hash, the lockfile's, and whether they differ. */
function checkSide(name: string, version: string, lockIntegrity: string | undefined, entry: unknown): Side {
  if (!isRecord(entry)) return { ok: false, notInspected: `the registry has no version ${version} of it` };
  const registry = registryHash(name, version, entry);
  if (!("hash" in registry)) return registry;
  if (lockIntegrity === undefined) return { ok: true };
  const lock = soleHash(parseHashes(lockIntegrity));
  if ("none" in lock) return { ok: false, notInspected: `the lockfile's integrity for ${code(`${name}@${version}`)} names no sha512, sha384, sha256 or sha1 hash to check its tarball against` };
  if ("ambiguous" in lock) {
    const { algorithm, count } = lock.ambiguous;
    const text = `the lockfile gives ${code(`${name}@${version}`)} ${count} different ${algorithm} hashes; npm installs a tarball that matches any one of them, so what it installs cannot be known: it is not compared`;
    return { ok: false, fact: { kind: "integrity-ambiguous", severity: "critical", text } };
  }
  const compared = comparedWith(lock.hash, distHashes(distOf(entry)));
  if (compared === "differs") return { ok: false, fact: lockMismatchFact(name, version, lock.hash.algorithm) };
  return { ok: true, lock: { hash: lock.hash, byBytes: compared === "unknown" } };
}

/** The change's versions and hashes, or its outcome when the document alone settles it. */
function plan(name: string, change: PackageChange, document: Record<string, unknown>): Plan | Outcome {
  const versions = document["versions"] as Record<string, unknown>;
  const fromLockfile = change.source === "lockfile";
  const after = resolveVersion(change.new!, change.source, document);
  if ("notInspected" in after) return { facts: [], notInspected: after.notInspected };
  const before = change.old && !change.old.nonRegistry ? resolveVersion(change.old, change.source, document) : undefined;
  if (before && "notInspected" in before) return { facts: [], notInspected: `the old version: ${before.notInspected}` };
  const newSide = checkSide(name, after.version, fromLockfile ? change.new!.integrity : undefined, versions[after.version]);
  if (!newSide.ok) return outcomeOf(newSide);
  const oldSide = before && checkSide(name, before.version, fromLockfile ? change.old!.integrity : undefined, versions[before.version]);
  if (oldSide && !oldSide.ok) return outcomeOf(oldSide, "the old version: ");
  return { after: after.version, ...(before ? { before: before.version } : {}), ...(newSide.lock ? { newLock: newSide.lock } : {}), ...(oldSide?.lock ? { oldLock: oldSide.lock } : {}) };
}

/** A lockfile hash the registry's document could not confirm, checked against the bytes read. */
function bytesFact(name: string, version: string, lock: LockHash | undefined, digests: Map<Algorithm, string>): DependencyFact | undefined {
  if (!lock?.byBytes || digests.get(lock.hash.algorithm) === lock.hash.digest) return undefined;
  return lockMismatchFact(name, version, lock.hash.algorithm);
}

async function compareChange(name: string, p: Plan, document: Record<string, unknown>, pass: PackagePass, meta: PackageMeta): Promise<Outcome> {
  const versions = document["versions"] as Record<string, Record<string, unknown>>;
  const newReading = await pass.readings.get(name, p.after, versions[p.after]!);
  if (!newReading.ok) return outcomeOf(newReading);
  const newFact = bytesFact(name, p.after, p.newLock, newReading.digests);
  if (newFact) return { facts: [newFact] };
  const oldReading = p.before !== undefined ? await pass.readings.get(name, p.before, versions[p.before]!) : undefined;
  if (oldReading && !oldReading.ok) return outcomeOf(oldReading, "the old version: ");
  const oldFact = oldReading && bytesFact(name, p.before!, p.oldLock, oldReading.digests);
  if (oldFact) return { facts: [oldFact] };
  const newMeta = await meta.of(p.after, p.before !== undefined);
  const oldMeta = p.before !== undefined ? await meta.of(p.before, true) : undefined;
  return {
    facts: compareVersions({
      name,
      ...(oldReading?.ok ? { old: oldReading.contents } : {}),
      new: newReading.contents,
      ...(oldMeta ? { oldMeta } : {}),
      ...(newMeta ? { newMeta } : {}),
      now: pass.now,
    }),
  };
}

/** Every change of one package, settled: its outcome, or the error that stopped it (an abort is thrown). */
export async function inspectPackage(name: string, changes: readonly PackageChange[], pass: PackagePass): Promise<Map<PackageChange, Settled>> {
  const settled = new Map<PackageChange, Settled>();
  let document: unknown;
  try {
    document = await pass.client.abbreviated(name);
  } catch (error) {
    if (pass.signal?.aborted) throw error;
    for (const change of changes) settled.set(change, { error });
    return settled;
  }
  if (!isRecord(document) || !isRecord(document["versions"])) {
    for (const change of changes) settled.set(change, { outcome: { facts: [], notInspected: `the registry's document of ${code(name)} lists no versions` } });
    return settled;
  }
  const plans = changes.map((change) => [change, plan(name, change, document)] as const);
  const ready = plans.filter((entry): entry is readonly [PackageChange, Plan] => "after" in entry[1]);
  for (const [, p] of ready) {
    pass.readings.expect(name, p.after, p.newLock?.byBytes ? p.newLock.hash.algorithm : undefined);
    if (p.before !== undefined) pass.readings.expect(name, p.before, p.oldLock?.byBytes ? p.oldLock.hash.algorithm : undefined);
  }
  const meta = new PackageMeta(pass.client, name, document, new Set(ready.flatMap(([, p]) => [p.after, ...(p.before !== undefined ? [p.before] : [])])), pass.now);
  for (const [change, p] of plans) {
    if (!("after" in p)) {
      settled.set(change, { outcome: p });
      continue;
    }
    try {
      settled.set(change, { outcome: await compareChange(name, p, document, pass, meta) });
    } catch (error) {
      if (pass.signal?.aborted) throw error;
      settled.set(change, { error });
    } finally {
      pass.readings.release(name, p.after);
      if (p.before !== undefined) pass.readings.release(name, p.before);
    }
  }
  return settled;
}
