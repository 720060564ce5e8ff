/**
 * Which npm packages a pull request changes, read from the dependency files its diff touches:
 * from a changed lockfile (v2/v3 `packages` map) every entry whose version or integrity changed,
 * was added or removed, marked direct when the root or a workspace manifest names it; else, for a
 * folder whose lockfile did not change, the ranges its package.json changes. Bad input becomes a
 * problem naming the file, never an exception.
 */
import type { LockedVersion, PackageChange } from "./types.js";
import { jsonKeyLines, keyPath } from "./json-lines.js";

/** The files whose change can change installed npm packages, at any depth. */
export const DEPENDENCY_FILE = /(?:^|\/)(?:package\.json|package-lock\.json|npm-shrinkwrap\.json)$/;

/** A file of one commit; undefined: no such file there. */
export interface TreeReader {
  read(path: string): Promise<string | undefined>;
}

export interface ChangedPackages {
  changes: PackageChange[];
  /** One sentence each, naming the file: a v1 lockfile, bad JSON, a deleted lockfile. */
  problems: string[];
}

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
function owners(packages: Packages): Map<string, Set<string>> {
  const result = new Map<string, Set<string>>();
  for (const [key, entry] of Object.entries(packages)) {
    if (isPackageKey(key) || !isRecord(entry)) continue;
    result.set(key, new Set(DEPENDENCY_FIELDS.flatMap((field) => Object.keys(entry[field] ?? {}))));
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

/** The packages a changed lockfile's entries change, in the head's order, then removals in the base's. */
function diffPackages(file: string, base: Packages, head: Packages, headText: string): PackageChange[] {
  const lines = jsonKeyLines(headText);
  const headOwners = owners(head);
  const baseOwners = owners(base);
  const entryOf = (packages: Packages, key: string) => (isPackageKey(key) && isRecord(packages[key]) && packages[key].link !== true ? packages[key] : undefined);
  const keys = [...Object.keys(head), ...Object.keys(base).filter((key) => !(key in head))];
  const changes: PackageChange[] = [];
  for (const key of keys) {
    const before = entryOf(base, key);
    const after = entryOf(head, key);
    const old = before && lockedVersion(before);
    const now = after && lockedVersion(after);
    if (!old && !now) continue;
    if (old && now && old.version === now.version && old.integrity === now.integrity) continue;
    const named = (now ? after : before)?.name;
    const name = typeof named === "string" ? named : key.slice(key.lastIndexOf(NODE_MODULES) + NODE_MODULES.length);
    const line = now ? (lines.get(keyPath("packages", key, "version")) ?? lines.get(keyPath("packages", key)) ?? 1) : 1;
    changes.push({ name, location: key, ...(old ? { old } : {}), ...(now ? { new: now } : {}), ...ownerOf(key, now ? headOwners : baseOwners), file, line, source: "lockfile" });
  }
  return changes;
}

/** One changed lockfile: its changes and the folders it covers (its own and its workspaces'), or its problem. */
async function lockfileChanges(file: string, base: TreeReader, head: TreeReader): Promise<{ changes: PackageChange[]; covers: string[] } | { problem: string }> {
  const headText = await head.read(file);
  if (headText === undefined) return { problem: `${file} is deleted by the pull request; its packages are not reviewed` };
  const after = lockPackages(headText, file, "head");
  if ("problem" in after) return after;
  const before = lockPackages(await base.read(file), file, "base");
  if ("problem" in before) return before;
  const folder = folderOf(file);
  const workspaces = Object.keys(after.packages).filter((key) => key !== "" && !isPackageKey(key));
  return { changes: diffPackages(file, before.packages, after.packages, headText), covers: [folder, ...workspaces.map((w) => joinFolder(folder, w))] };
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

/** The ranges a changed package.json changes (its folder's lockfile did not change). */
async function manifestChanges(file: string, base: TreeReader, head: TreeReader, problems: string[]): Promise<PackageChange[]> {
  const headText = await head.read(file);
  if (headText === undefined) return [];
  const baseText = await base.read(file);
  const after = parseJson(headText, file, "head");
  const before = baseText === undefined ? ({ ok: true, value: {} } as const) : parseJson(baseText, file, "base");
  if (!after.ok || !before.ok) {
    problems.push(!after.ok ? after.problem : (before as { problem: string }).problem);
    return [];
  }
  const lines = jsonKeyLines(headText, 2);
  const now = manifestRanges(after.value);
  const then = manifestRanges(before.value);
  const folder = folderOf(file);
  const common = { direct: true, ...(folder ? { workspace: folder } : {}), file, source: "manifest" as const };
  const changes: PackageChange[] = [];
  for (const [name, { range, field }] of now) {
    const old = then.get(name);
    if (old?.range === range) continue;
    changes.push({ name, location: name, ...(old ? { old: { version: old.range } } : {}), new: { version: range }, ...common, line: lines.get(keyPath(field, name)) ?? 1 });
  }
  for (const [name, { range }] of then) if (!now.has(name)) changes.push({ name, location: name, old: { version: range }, ...common, line: 1 });
  return changes;
}

/** Every npm package the changed paths change, lockfiles first; problems instead of exceptions. */
export async function changedPackages(changedPaths: readonly string[], base: TreeReader, head: TreeReader): Promise<ChangedPackages> {
  const files = changedPaths.filter((path) => DEPENDENCY_FILE.test(path));
  const changed = new Set(files);
  const lockfiles = files.filter((file) => baseName(file) !== "package.json" && !(baseName(file) === "package-lock.json" && changed.has(joinFolder(folderOf(file), "npm-shrinkwrap.json"))));
  const changes: PackageChange[] = [];
  const problems: string[] = [];
  const covered = new Set<string>();
  for (const file of lockfiles) {
    const result = await lockfileChanges(file, base, head);
    if ("problem" in result) {
      problems.push(result.problem);
      continue;
    }
    changes.push(...result.changes);
    for (const folder of result.covers) covered.add(folder);
  }
  for (const file of files.filter((f) => baseName(f) === "package.json" && !covered.has(folderOf(f)))) {
    changes.push(...(await manifestChanges(file, base, head, problems)));
  }
  return { changes, problems };
}
