/**
 * Which npm packages a pull request changes, read from the dependency files its diff touches:
 * from a changed lockfile (v2/v3 `packages` map) every entry whose version or integrity changed,
 * was added or removed, marked direct when the root or a workspace manifest names it; else, for a
 * folder whose lockfile did not change, the ranges its package.json changes. Bad input becomes a
 * problem naming the file, never an exception. The files are read under the review's budgets
 * (`dependency-reads.ts`), at most `maxChanges` changes are kept (the others counted in a problem),
 * and the event loop turns while a long lockfile is compared.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import type { LockedVersion, PackageChange } from "./types.js";
import { DependencyReads, unreadFiles, type DetectionLimits, type TreeReader } from "./dependency-reads.js";
import { jsonKeyLines, keyPath } from "./json-lines.js";

/** The files whose change can change installed npm packages, at any depth. */
export const DEPENDENCY_FILE = /(?:^|\/)(?:package\.json|package-lock\.json|npm-shrinkwrap\.json)$/;

/** Lockfile entries compared between two turns of the event loop. */
const KEYS_PER_TURN = 2_000;

export interface ChangedPackages {
  changes: PackageChange[];
  /** One sentence each, naming the file: a v1 lockfile, bad JSON, a deleted lockfile, a budget spent. */
  problems: string[];
}

/** How many more changes the review keeps, and how many it had to leave out. */
class ChangeRoom {
  left: number;
  constructor(readonly max: number) {
    this.left = max;
  }

  get full(): boolean {
    return this.left === 0;
  }

  /** Whether one more change is kept. */
  take(): boolean {
    if (this.left === 0) return false;
    this.left--;
    return true;
  }
}

const countText = (n: number) => n.toLocaleString("en");
const overProblem = (file: string, over: number, max: number) =>
  `${file} changes ${countText(over)} more npm ${over === 1 ? "package" : "packages"} than the ${countText(max)} a review lists; ${over === 1 ? "it is" : "they are"} not reviewed`;

export const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"] as const;
const NODE_MODULES = "node_modules/";

interface LockEntry {
  name?: string;
  version?: string;
  integrity?: string;
  resolved?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}
type Packages = Record<string, LockEntry>;

const baseName = (file: string) => file.slice(file.lastIndexOf("/") + 1);
const folderOf = (file: string) => (file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : "");
const joinFolder = (folder: string, sub: string) => (folder === "" ? sub : sub === "" ? folder : `${folder}/${sub}`);
const isPackageKey = (key: string) => key.startsWith(NODE_MODULES) || key.includes(`/${NODE_MODULES}`);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

type Parsed = { ok: true; value: unknown } | { ok: false; problem: string };

function parseJson(text: string, file: string, side: "base" | "head"): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, problem: `${file} is not valid JSON on the ${side} (${(error as Error).message}); its packages are not reviewed` };
  }
}

/** The `packages` map of a lockfile text, or the problem with it (bad JSON, lockfile v1). */
function lockPackages(text: string | undefined, file: string, side: "base" | "head"): { packages: Packages } | { problem: string } {
  if (text === undefined) return { packages: {} };
  const parsed = parseJson(text, file, side);
  if (!parsed.ok) return { problem: parsed.problem };
  if (!isRecord(parsed.value)) return { problem: `${file} on the ${side} is not a lockfile (not a JSON object); its packages are not reviewed` };
  const packages = parsed.value["packages"];
  if (!isRecord(packages)) {
    const version = parsed.value["lockfileVersion"];
    return { problem: `lockfile v${typeof version === "number" ? version : 1}: ${file} on the ${side} has no \`packages\` map (npm 7 or newer writes one); its packages are not reviewed` };
  }
  return { packages: packages as Packages };
}

/** Folder ("" for the root, `packages/web` for a workspace) → the names its manifest depends on. */
function namesByFolder(packages: Packages): Map<string, Set<string>> {
  const result = new Map<string, Set<string>>();
  for (const key of Object.keys(packages)) {
    const entry: unknown = packages[key];
    if (isPackageKey(key) || !isRecord(entry)) continue;
    result.set(key, new Set(DEPENDENCY_FIELDS.flatMap((field) => (isRecord(entry[field]) ? Object.keys(entry[field]) : []))));
  }
  return result;
}

/** Whether a manifest of the repository names the package at `key`, and which workspace's. */
function ownerOf(key: string, byFolder: Map<string, Set<string>>): { direct: boolean; workspace?: string } {
  const at = key.lastIndexOf(NODE_MODULES);
  const prefix = key.slice(0, at).replace(/\/$/, "");
  const folderName = key.slice(at + NODE_MODULES.length);
  if (prefix === "") {
    if (byFolder.get("")?.has(folderName)) return { direct: true };
    for (const [workspace, names] of byFolder) if (workspace !== "" && names.has(folderName)) return { direct: true, workspace };
    return { direct: false };
  }
  if (isPackageKey(`${prefix}/`)) return { direct: false };
  return byFolder.get(prefix)?.has(folderName) ? { direct: true, workspace: prefix } : { direct: false };
}

/** Where the lockfile says a version comes from, when that is not a registry (it is then not fetched). */
export function nonRegistryOrigin(resolved: string | undefined): string | undefined {
  if (resolved === undefined) return undefined;
  if (/^(?:git\+|git:|github:|gitlab:|bitbucket:|gist:)/.test(resolved)) return "a git dependency";
  if (resolved.startsWith("file:")) return "a local file";
  if (/^https?:\/\//i.test(resolved)) {
    try {
      const path = new URL(resolved).pathname;
      return path.includes("/-/") && path.endsWith(".tgz") ? undefined : "a tarball URL";
    } catch {
      return "a tarball URL";
    }
  }
  return "not from a registry";
}

function lockedVersion(entry: LockEntry): LockedVersion | undefined {
  if (typeof entry.version !== "string") return undefined;
  const elsewhere = nonRegistryOrigin(typeof entry.resolved === "string" ? entry.resolved : undefined);
  return {
    version: entry.version,
    ...(typeof entry.integrity === "string" ? { integrity: entry.integrity } : {}),
    ...(elsewhere ? { nonRegistry: elsewhere } : {}),
  };
}

const entryOf = (packages: Packages, key: string): LockEntry | undefined => {
  const entry: unknown = Object.hasOwn(packages, key) ? packages[key] : undefined;
  return isPackageKey(key) && isRecord(entry) && entry["link"] !== true ? (entry as LockEntry) : undefined;
};
const integrityOf = (entry: LockEntry) => (typeof entry.integrity === "string" ? entry.integrity : undefined);
const sameLock = (a: LockEntry, b: LockEntry) => a.version === b.version && integrityOf(a) === integrityOf(b);

/** Whether the entry at `key` is a change: added, removed, or another version or integrity. */
function isChange(before: LockEntry | undefined, after: LockEntry | undefined): boolean {
  const old = typeof before?.version === "string";
  const now = typeof after?.version === "string";
  return (old || now) && !(old && now && sameLock(before!, after!));
}

/** Each side's manifests' names by folder, made when the first change is kept (a lockfile whose changes are all over the room never needs them). */
function lazyNames(base: Packages, head: Packages): () => { head: Map<string, Set<string>>; base: Map<string, Set<string>> } {
  let made: { head: Map<string, Set<string>>; base: Map<string, Set<string>> } | undefined;
  return () => (made ??= { head: namesByFolder(head), base: namesByFolder(base) });
}

function changeAt(file: string, key: string, before: LockEntry | undefined, after: LockEntry | undefined, byFolder: { head: Map<string, Set<string>>; base: Map<string, Set<string>> }): PackageChange {
  const old = before && lockedVersion(before);
  const now = after && lockedVersion(after);
  const named = (now ? after : before)?.name;
  const name = typeof named === "string" ? named : key.slice(key.lastIndexOf(NODE_MODULES) + NODE_MODULES.length);
  return { name, location: key, ...(old ? { old } : {}), ...(now ? { new: now } : {}), ...ownerOf(key, now ? byFolder.head : byFolder.base), file, line: 1, source: "lockfile" };
}

/** Each kept change on its version's line on the head (else its key's); a removal stays on line 1. */
function placeOnLines(changes: PackageChange[], headText: string): void {
  const at = (change: PackageChange) => [keyPath("packages", change.location, "version"), keyPath("packages", change.location)];
  const added = changes.filter((change) => change.new);
  const lines = jsonKeyLines(headText, 3, new Set(added.flatMap(at)));
  for (const change of added) change.line = at(change).map((path) => lines.get(path)).find((line) => line !== undefined) ?? 1;
}

/**
 * The packages a changed lockfile's entries change, in the head's order, then removals in the
 * base's: as many as `room` takes, the others counted.
 */
async function diffPackages(file: string, base: Packages, head: Packages, headText: string, room: ChangeRoom, signal: AbortSignal | undefined): Promise<{ changes: PackageChange[]; over: number }> {
  const byFolder = lazyNames(base, head);
  const keys = Object.keys(head);
  for (const key of Object.keys(base)) if (!Object.hasOwn(head, key)) keys.push(key);
  const changes: PackageChange[] = [];
  let over = 0;
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && i % KEYS_PER_TURN === 0) {
      await nextTurn();
      signal?.throwIfAborted();
    }
    const key = keys[i]!;
    const before = entryOf(base, key);
    const after = entryOf(head, key);
    if (!isChange(before, after)) continue;
    if (room.take()) changes.push(changeAt(file, key, before, after, byFolder()));
    else over++;
  }
  await nextTurn();
  if (changes.length > 0) placeOnLines(changes, headText);
  return { changes, over };
}

interface Detection {
  reads: DependencyReads;
  room: ChangeRoom;
  signal: AbortSignal | undefined;
  changes: PackageChange[];
  problems: string[];
}

/** One changed lockfile's changes (into `d`), and the folders it covers (its own and its workspaces'). */
async function lockfileChanges(file: string, d: Detection): Promise<string[]> {
  const told = (problem: string) => (d.problems.push(problem), []);
  const sides = await d.reads.sides(file);
  if (sides === undefined) return [];
  if ("problem" in sides) return told(sides.problem);
  if (sides.head === undefined) return told(`${file} is deleted by the pull request; its packages are not reviewed`);
  const after = lockPackages(sides.head, file, "head");
  if ("problem" in after) return told(after.problem);
  await nextTurn();
  const before = lockPackages(sides.base, file, "base");
  if ("problem" in before) return told(before.problem);
  await nextTurn();
  const { changes, over } = await diffPackages(file, before.packages, after.packages, sides.head, d.room, d.signal);
  for (const change of changes) d.changes.push(change);
  if (over > 0) d.problems.push(overProblem(file, over, d.room.max));
  const folder = folderOf(file);
  return [folder, ...Object.keys(after.packages).filter((key) => key !== "" && !isPackageKey(key)).map((w) => joinFolder(folder, w))];
}

/** Dependency name → its range and the field naming it (the first of DEPENDENCY_FIELDS wins). */
function manifestRanges(manifest: unknown): Map<string, { range: string; field: string }> {
  const ranges = new Map<string, { range: string; field: string }>();
  if (!isRecord(manifest)) return ranges;
  for (const field of DEPENDENCY_FIELDS) {
    const deps = manifest[field];
    if (!isRecord(deps)) continue;
    for (const [name, range] of Object.entries(deps)) if (typeof range === "string" && !ranges.has(name)) ranges.set(name, { range, field });
  }
  return ranges;
}

/** The ranges a changed package.json changes (its folder's lockfile did not change), into `d`. */
async function manifestChanges(file: string, d: Detection): Promise<void> {
  const sides = await d.reads.sides(file);
  if (sides === undefined) return;
  if ("problem" in sides) return void d.problems.push(sides.problem);
  if (sides.head === undefined) return;
  const after = parseJson(sides.head, file, "head");
  const before = sides.base === undefined ? ({ ok: true, value: {} } as const) : parseJson(sides.base, file, "base");
  if (!after.ok || !before.ok) return void d.problems.push(!after.ok ? after.problem : (before as { problem: string }).problem);
  const now = manifestRanges(after.value);
  const then = manifestRanges(before.value);
  const folder = folderOf(file);
  const common = { direct: true, ...(folder ? { workspace: folder } : {}), file, source: "manifest" as const };
  const changes: PackageChange[] = [];
  let over = 0;
  const keep = (change: PackageChange) => (d.room.take() ? changes.push(change) : over++);
  for (const [name, { range }] of now) {
    const old = then.get(name);
    if (old?.range !== range) keep({ name, location: name, ...(old ? { old: { version: old.range } } : {}), new: { version: range }, ...common, line: 1 });
  }
  for (const [name, { range }] of then) if (!now.has(name)) keep({ name, location: name, old: { version: range }, ...common, line: 1 });
  const wanted = new Set(changes.filter((c) => c.new).map((c) => keyPath(now.get(c.name)!.field, c.name)));
  const lines = jsonKeyLines(sides.head, 2, wanted);
  for (const change of changes) if (change.new) change.line = lines.get(keyPath(now.get(change.name)!.field, change.name)) ?? 1;
  for (const change of changes) d.changes.push(change);
  if (over > 0) d.problems.push(overProblem(file, over, d.room.max));
}

/**
 * Every npm package the changed paths change, lockfiles first; problems instead of exceptions,
 * a budget spent among them. Rejects only when `limits.signal` aborts.
 */
export async function changedPackages(changedPaths: readonly string[], base: TreeReader, head: TreeReader, limits: DetectionLimits = {}): Promise<ChangedPackages> {
  const files = changedPaths.filter((path) => DEPENDENCY_FILE.test(path));
  const changed = new Set(files);
  const lockfiles = files.filter((file) => baseName(file) !== "package.json" && !(baseName(file) === "package-lock.json" && changed.has(joinFolder(folderOf(file), "npm-shrinkwrap.json"))));
  const reads = new DependencyReads(base, head, limits);
  const d: Detection = { reads, room: new ChangeRoom(reads.limits.maxChanges), signal: limits.signal, changes: [], problems: [] };
  const covered = new Set<string>();
  // Once the review lists all the changes it may, the files after are named, not read: counting
  // their changes would parse megabytes for a number.
  const unlisted: string[] = [];
  for (const file of lockfiles) {
    if (d.room.full) unlisted.push(file);
    else for (const folder of await lockfileChanges(file, d)) covered.add(folder);
  }
  for (const file of files.filter((f) => baseName(f) === "package.json" && !covered.has(folderOf(f)))) {
    if (d.room.full) unlisted.push(file);
    else await manifestChanges(file, d);
  }
  const unread = reads.problem();
  if (unread) d.problems.push(unread);
  if (unlisted.length > 0) d.problems.push(`${unreadFiles(unlisted)}: the review already lists the ${countText(d.room.max)} changed npm packages it may; their packages are not reviewed`);
  return { changes: d.changes, problems: d.problems };
}
