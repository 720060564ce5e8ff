/**
 * Inspects the changed packages: for each (up to `maxPackages`, direct ones first) npm's
 * abbreviated document and both tarballs from the operator's registry, each tarball verified
 * against the hash the registry gives for its name@version (which the lockfile's integrity must
 * agree with), read in memory and compared. Everything read counts against one byte budget per
 * review; the job's signal stops the pass between any two reads. Every change gets a report;
 * whatever goes wrong for one package becomes its "not inspected" reason, never an exception.
 */
import { BudgetSpent, ByteBudget } from "./byte-budget.js";
import { inspectPackage, type Outcome, type PackagePass } from "./inspect-package.js";
import { Readings, type InspectMeter } from "./readings.js";
import { RegistryError, registryClient } from "./registry.js";
import type { DependencyReview, PackageChange, PackageReport, RegistrySettings } from "./types.js";

/** What one review's dependency pass may read from the registry and the cache, all told (200 MB). */
export const DEFAULT_REVIEW_BYTES = 200 * 1024 * 1024;

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
  /** Every document, manifest and tarball the review reads, together (`DEFAULT_REVIEW_BYTES`). */
  maxReviewBytes?: number;
  /** Packages inspected at once (4). */
  concurrency?: number;
  meter?: InspectMeter;
}

/** The changes to inspect, at most `max`: direct ones first, then transitive, each in their order. */
export function chooseInspected(changes: readonly PackageChange[], max: number): Set<PackageChange> {
  const inspectable = changes.filter((c) => c.new && !c.new.nonRegistry);
  return new Set([...inspectable.filter((c) => c.direct), ...inspectable.filter((c) => !c.direct)].slice(0, Math.max(0, max)));
}

/** The chosen changes by package name, names in the order they are first chosen. */
function byName(chosen: Iterable<PackageChange>): [string, PackageChange[]][] {
  const groups = new Map<string, PackageChange[]>();
  for (const change of chosen) groups.set(change.name, [...(groups.get(change.name) ?? []), change]);
  return [...groups];
}

async function eachLimited<T>(items: readonly T[], limit: number, signal: AbortSignal | undefined, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      signal?.throwIfAborted();
      await work(items[next++]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

/** Why a package's inspection stopped, as its reason (an abort is thrown on). */
function failed(change: PackageChange, error: unknown, options: InspectOptions): Outcome {
  if (options.signal?.aborted) throw error;
  const reason = error instanceof RegistryError || error instanceof BudgetSpent ? error.message : `it could not be inspected (${(error as Error).message})`;
  options.log.warn(`dependency review: ${change.name}@${change.new?.version}: ${reason}`);
  return { facts: [], notInspected: reason };
}

function passFor(options: InspectOptions): PackagePass {
  const budget = new ByteBudget(options.maxReviewBytes ?? DEFAULT_REVIEW_BYTES);
  const client = registryClient({
    settings: options.registry,
    budget,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.maxTarballBytes ? { maxTarballBytes: options.maxTarballBytes } : {}),
  });
  const context = {
    client,
    budget,
    registryUrl: options.registry.url,
    cacheDir: options.cacheDir,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.meter ? { meter: options.meter } : {}),
    warn: (message: string) => options.log.warn(`dependency review: ${message}`),
  };
  return { ...context, readings: new Readings(context), now: (options.now ?? Date.now)() };
}

/** Every change's report, in the changes' order; nothing here throws for a package's sake. */
export async function inspectDependencies(changes: readonly PackageChange[], options: InspectOptions): Promise<DependencyReview> {
  const pass = passFor(options);
  const chosen = chooseInspected(changes, options.maxPackages);
  const reports = new Map<PackageChange, PackageReport>();
  for (const change of changes) {
    const why = !change.new ? "removed" : change.new.nonRegistry ? `${change.new.nonRegistry}, not from a registry: not fetched` : chosen.has(change) ? undefined : `over review.dependencies.maxPackages (${options.maxPackages})`;
    if (why) reports.set(change, { change, facts: [], notInspected: why });
  }
  await eachLimited(byName(chosen), options.concurrency ?? 4, options.signal, async ([name, group]) => {
    const settled = await inspectPackage(name, group, pass);
    for (const [change, result] of settled) reports.set(change, { change, ...("outcome" in result ? result.outcome : failed(change, result.error, options)) });
  });
  return { packages: changes.map((change) => reports.get(change)!) };
}
