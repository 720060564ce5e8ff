/**
 * Which published version a change means: the one a lockfile pins, or the highest one a
 * manifest's range (or dist-tag) allows among the registry document's versions, by npm's own
 * version rules (`semver`).
 */
import { createRequire } from "node:module";
import { code } from "./compare.js";
import type { LockedVersion, PackageChange } from "./types.js";

/** The parts of `semver` used here. */
interface Semver {
  valid(version: string): string | null;
  validRange(range: string): string | null;
  maxSatisfying(versions: readonly string[], range: string): string | null;
}
const semver = createRequire(import.meta.url)("semver") as Semver;

export type Resolved = { version: string } | { notInspected: string };
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

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
