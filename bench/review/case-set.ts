/**
 * bench:review's cases: pull requests made from published npm packages (the same kind of
 * source as bench:tasks, pinned by integrity and fetched with `npm pack` at run time). A case is
 * the package as the base commit and our patch on top as the pull request's head. Bug cases
 * carry the lines that carry the bug (the patch's changed lines in code files, on the head's
 * side) and a test that fails while the bug is in (the oracle's reproducer); clean cases
 * (refactors, docs, tests) should get no critical or warning finding.
 *
 * The 13 break patches of bench:tasks are bug cases too (their hidden tests are the reproducers);
 * the cases of our own live in bench/review/cases/<id>/ (`case.json`, `pr.patch`, `repro/`).
 * Together they are the easy set: small popular packages whose bugs sit in the diff itself.
 *
 * The hard set (bench/review/hard/) is pull requests on tidemark, an application written for the
 * bench that no model has seen: each bug shows only with a file outside the diff, and each clean
 * change looks wrong until one reads such a file.
 */
import { existsSync } from "node:fs";
import { cp, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { parseDiff } from "../../src/review/diff-lines.js";
import type { ReproducerFile } from "../../src/tools/proof-session.js";
import { git, loadTasks, tarball, type TaskMeta } from "../tasks/task-set.js";

const run = promisify(execFile);
const HERE = path.dirname(fileURLToPath(import.meta.url));
export const CASES_DIR = path.join(HERE, "cases");
/** The hard set: its application (the base of every case) and its cases. */
export const HARD_APP_DIR = path.join(HERE, "hard", "tidemark");
export const HARD_CASES_DIR = path.join(HERE, "hard", "cases");

/** The case sets, each reported apart. */
export const CASE_SETS = ["easy", "hard"] as const;
export type CaseSet = (typeof CASE_SETS)[number];
/** Where a reproducer's files go in the copy: one level down, so tests import the package as `../<file>`. */
export const REPRO_DIR = "__repro__";

export interface BugLines {
  path: string;
  from: number;
  to: number;
}

export interface ReviewCase {
  id: string;
  set: CaseSet;
  /** The base is this directory (the hard set's application) instead of the package's tarball. */
  app?: string;
  package: string;
  version: string;
  integrity: string;
  licence: string;
  origin: string;
  kind: "bug" | "clean";
  /** off-by-one, wrong operator, …; for clean cases what the change is (rename, docs, tests). */
  bugKind: string;
  /** The pull request's title and description, as its author would write them. */
  title: string;
  body: string;
  /** The pull request: a unified diff against the package root. */
  patch: string;
  /** Bug cases: where the bug is (head-side lines); empty for clean cases. */
  bugLines: BugLines[];
  /** Bug cases: a test that fails while the bug is in, as the files `prove` adds. */
  repro: ReproducerFile[];
  /** Hard cases: the files outside the diff one must read to see the bug (or why the clean change is right). */
  evidence?: string[];
}

/** case.json: everything but what the case folder holds as files (the patch, the bug lines, the reproducer). */
type CaseJson = Omit<ReviewCase, "set" | "patch" | "bugLines" | "repro">;

/** A hard case's case.json: the application is the package; `bugAt` names the bug's lines where the patch's code lines say too much. */
type HardCaseJson = Pick<ReviewCase, "id" | "kind" | "bugKind" | "title" | "body" | "evidence"> & { truth: string; bugAt?: BugLines[] };

const CODE = /\.(?:[cm]?js|ts)$/;
const isCode = (p: string) => CODE.test(p) && !p.endsWith(".d.ts");

/**
 * The lines of a bug-introducing patch that carry the bug, on the head's side: its added lines
 * in code files, and for a hunk that only deletes, the line where the deleted code was.
 */
export function bugLinesOf(patch: string): BugLines[] {
  const out: BugLines[] = [];
  for (const file of parseDiff(patch)) {
    if (!isCode(file.path) || file.status === "deleted") continue;
    for (const hunk of file.hunks) {
      const added = hunk.lines.filter((l) => l.kind === "add").map((l) => l.newLine!);
      if (added.length > 0) {
        out.push({ path: file.path, from: Math.min(...added), to: Math.max(...added) });
        continue;
      }
      const firstDel = hunk.lines.findIndex((l) => l.kind === "del");
      if (firstDel === -1) continue;
      const after = hunk.lines.slice(firstDel).find((l) => l.kind === "context");
      const before = hunk.lines.slice(0, firstDel).reverse().find((l) => l.kind === "context");
      const at = after?.newLine ?? (before?.newLine ?? 0) + 1;
      out.push({ path: file.path, from: at, to: at });
    }
  }
  return out;
}

async function reproOf(dir: string, names?: string[]): Promise<ReproducerFile[]> {
  if (!existsSync(dir)) return [];
  const files = (await readdir(dir)).filter((n) => n.endsWith(".test.mjs") && (!names || names.includes(n))).sort();
  return Promise.all(files.map(async (n) => ({ path: `${REPRO_DIR}/${n}`, content: await readFile(path.join(dir, n), "utf8") })));
}

/** bench:tasks' break patches as bug cases: a neutral title (the issue would give the bug away). */
async function taskCases(): Promise<ReviewCase[]> {
  const tasks = await loadTasks();
  return tasks.map((t) => {
    const files = parseDiff(t.breakPatch).map((f) => f.path);
    return {
      ...pick(t),
      id: `task-${t.id}`,
      set: "easy" as const,
      kind: "bug" as const,
      bugKind: `bench:tasks ${t.kind}`,
      title: `Update ${files.join(", ")}`,
      body: `Changes ${files.join(", ")}.`,
      patch: t.breakPatch,
      bugLines: bugLinesOf(t.breakPatch),
      repro: [...t.hidden].map(([name, content]) => ({ path: `${REPRO_DIR}/${name}`, content })),
    };
  });
}

const pick = (t: TaskMeta) => ({ package: t.package, version: t.version, integrity: t.integrity, licence: t.licence, origin: t.origin });

/** Each case folder of `dir` (one with a case.json): its case.json, its patch and, for a bug, its reproducer. */
async function caseFolders<M extends { id: string; kind: "bug" | "clean" }>(dir: string): Promise<Array<{ meta: M; patch: string; repro: ReproducerFile[] }>> {
  if (!existsSync(dir)) return [];
  const ids = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory() && existsSync(path.join(dir, e.name, "case.json"))).map((e) => e.name);
  return Promise.all(
    ids.map(async (id) => {
      const meta = JSON.parse(await readFile(path.join(dir, id, "case.json"), "utf8")) as M;
      if (meta.id !== id) throw new Error(`case ${id}: case.json says id "${meta.id}"`);
      const patch = await readFile(path.join(dir, id, "pr.patch"), "utf8");
      return { meta, patch, repro: meta.kind === "bug" ? await reproOf(path.join(dir, id, "repro")) : [] };
    }),
  );
}

async function ownCases(dir = CASES_DIR): Promise<ReviewCase[]> {
  return (await caseFolders<CaseJson>(dir)).map(({ meta, patch, repro }) => ({ ...meta, set: "easy" as const, patch, bugLines: meta.kind === "bug" ? bugLinesOf(patch) : [], repro }));
}

const isTest = (p: string) => /(^|\/)(test|tests|__tests__)\/|\.(test|spec)\.[cm]?[jt]s$/.test(p);

/** The hard set: pull requests on the application in `appDir`; a bug's lines are `bugAt`, or the patch's code lines outside tests. */
export async function hardCases(dir = HARD_CASES_DIR, appDir = HARD_APP_DIR): Promise<ReviewCase[]> {
  if (!existsSync(dir)) return [];
  const app = JSON.parse(await readFile(path.join(appDir, "package.json"), "utf8")) as { name: string; version: string };
  const origin = path.relative(path.join(HERE, "..", ".."), appDir);
  return (await caseFolders<HardCaseJson>(dir)).map(({ meta: { bugAt, ...meta }, patch, repro }) => ({
    ...meta,
    set: "hard" as const,
    app: appDir,
    ...{ package: app.name, version: app.version, integrity: "", licence: "written for the bench", origin },
    patch,
    bugLines: meta.kind === "bug" ? (bugAt ?? bugLinesOf(patch).filter((b) => !isTest(b.path))) : [],
    repro,
  }));
}

/** Every case of `set` (both by default), sorted by set then id; `only` narrows them (unknown ids are an error). */
export async function loadCases(only?: string[], set?: CaseSet): Promise<ReviewCase[]> {
  const everything = [...(await taskCases()), ...(await ownCases()), ...(await hardCases())];
  const all = everything.filter((c) => !set || c.set === set).sort((a, b) => a.set.localeCompare(b.set) || a.id.localeCompare(b.id));
  for (const c of all) {
    if (c.kind === "bug" && c.bugLines.length === 0) throw new Error(`case ${c.id}: a bug case whose patch changes no code line`);
    if (c.kind === "bug" && c.repro.length === 0) throw new Error(`case ${c.id}: a bug case without a reproducer`);
  }
  const unknown = (only ?? []).filter((id) => !all.some((c) => c.id === id));
  if (unknown.length > 0) throw new Error(`unknown case(s): ${unknown.join(", ")}; known: ${all.map((c) => c.id).join(", ")}`);
  return all.filter((c) => !only || only.includes(c.id));
}

/** Where a case's base comes from: its application's directory, or its package's tarball in the cache. */
export const caseSource = (c: ReviewCase, tarballs: string): { tarballs: string } | { source: string } => (c.app ? { source: c.app } : { tarballs });

export interface MaterialisedCase {
  /** A git repository: the base commit (the package), then the head commit (the patch). */
  repo: string;
  base: string;
  head: string;
  /** `git diff base head`, as the reviewer gets it. */
  diff: string;
}

/**
 * The case as a repository: the package (from its tarball, or from `source`, a directory, in
 * tests) committed as the base, the patch committed on top as the head.
 */
export async function materialiseCase(c: ReviewCase, into: string, from: { tarballs: string } | { source: string }): Promise<MaterialisedCase> {
  await mkdir(into, { recursive: true });
  if ("source" in from) await cp(from.source, into, { recursive: true });
  else {
    const tgz = await tarball({ ...c, id: c.id, kind: "bug", history: "", setup: "" }, from.tarballs);
    await run("tar", ["xzf", tgz, "-C", into, "--strip-components=1", "--no-same-owner"]);
  }
  await git(into, "init", "-q", "-b", "main");
  await git(into, "add", "-A", "--force");
  await git(into, "commit", "-q", "-m", `${c.package}@${c.version}`);
  const base = (await git(into, "rev-parse", "HEAD")).trim();
  const patchFile = path.join(into, "..", `${c.id}.patch`);
  await writeFile(patchFile, c.patch);
  await git(into, "apply", "--whitespace=nowarn", patchFile);
  await git(into, "add", "-A", "--force");
  await git(into, "commit", "-q", "-m", c.title);
  const head = (await git(into, "rev-parse", "HEAD")).trim();
  const diff = await git(into, "diff", "--no-color", "--no-ext-diff", "-M", base, head);
  return { repo: into, base, head, diff };
}
