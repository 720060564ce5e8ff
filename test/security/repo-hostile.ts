/**
 * Shared pieces of the repository-content attack suite (`repo-*.test.ts`): hostile repositories
 * built with real git and served over the local smart-HTTP server, crewbot's real job path on
 * them (mirror sync → checkout → default-branch files → definitions and instructions), the
 * agents' tools on the checkout, and checks that the host was not touched.
 */
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import { lstat, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { loadDefinitions, type Definitions } from "../../src/chain/definitions.js";
import { repoInstructions } from "../../src/context/repo-instructions.js";
import type { ContextSection } from "../../src/text/prompt.js";
import { editTool } from "../../src/tools/edit.js";
import { findTool } from "../../src/tools/find.js";
import { createGrepTool } from "../../src/tools/grep.js";
import { lsTool } from "../../src/tools/ls.js";
import { readTool } from "../../src/tools/read.js";
import { ToolError, type Mode, type ToolContext, type ToolResult } from "../../src/tools/types.js";
import { writeTool } from "../../src/tools/write.js";
import { makeCheckout, type Checkout } from "../../src/workspace/checkout.js";
import { readDefaultBranchFiles, type DefaultBranchFiles } from "../../src/jobs/default-branch.js";
import { MirrorStore } from "../../src/workspace/mirror.js";
import { serve, TOKEN, type Served } from "../workspace/fixture.js";
import { tempDir } from "../helpers/git-repo.js";

export { TOKEN };

/** Something that, wherever it shows up (file, tool output, definition), proves a host read. */
export const HOST_SECRET = `HOST-SECRET-${createHash("sha1").update(String(process.pid)).digest("hex").slice(0, 12)}`;

/** The host around a job: a secret file and dir outside every checkout, and a dir for marker files. */
export interface Host {
  /** A directory of the host (think /etc): `secret.txt`, `passwd`. */
  etc: string;
  /** Where hostile commands would leave `marker-*` files; must stay empty. */
  markers: string;
  /** A hooks dir whose every hook leaves a marker (for `core.hooksPath`). */
  hooks: string;
  /** The command a hostile config or attribute names: creates a marker named after `what`. */
  touch(what: string): string;
  /** Marker files that exist (should be none). */
  leftMarkers(): Promise<string[]>;
}

export async function makeHost(): Promise<Host> {
  const etc = await tempDir("crewbot-host-etc-");
  const markers = await tempDir("crewbot-host-markers-");
  const hooks = await tempDir("crewbot-host-hooks-");
  await writeFile(path.join(etc, "secret.txt"), `${HOST_SECRET}\n`);
  await writeFile(path.join(etc, "passwd"), `root:x:0:0:${HOST_SECRET}:/root:/bin/sh\n`);
  return {
    etc,
    markers,
    hooks,
    touch: (what) => `touch ${path.join(markers, `marker-${what}`)}`,
    leftMarkers: async () => readdir(markers),
  };
}

/** Hash of every file under `dir` (symlinks by their text), to prove a host directory was left alone. */
export async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const info = await lstat(full);
    if (info.isFile()) out[path.relative(dir, full)] = createHash("sha256").update(await readFile(full)).digest("hex");
    else if (info.isSymbolicLink()) out[path.relative(dir, full)] = "symlink";
    else if (info.isDirectory()) out[`${path.relative(dir, full)}/`] = "dir";
  }
  return out;
}

export interface HostileRepo {
  served: Served;
  /** The source repository (with a working tree) the server serves. */
  dir: string;
  cloneUrl: string;
  owner: string;
  name: string;
}

/**
 * git for building the hostile source repositories: a neutral HOME (a tree's own `.gitconfig` must
 * not become the test's global config, as it would with `gitSync`, whose HOME is the repository), no
 * system config, no hooks.
 */
export function srcGit(cwd: string, args: string[], input?: string): string {
  return execFileSync("git", ["-c", "core.hooksPath=/dev/null", ...args], {
    cwd,
    encoding: "utf8",
    ...(input !== undefined ? { input } : {}),
    env: {
      PATH: process.env.PATH,
      HOME: NEUTRAL_HOME,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_AUTHOR_NAME: "Mallory",
      GIT_AUTHOR_EMAIL: "mallory@example.com",
      GIT_COMMITTER_NAME: "Mallory",
      GIT_COMMITTER_EMAIL: "mallory@example.com",
    },
  });
}
const NEUTRAL_HOME = mkdtempSync(path.join(os.tmpdir(), "crewbot-neutral-home-"));

/** Writes `files` (paths may hold any character but NUL and `/` as separator) under `dir`. */
export async function writeTree(dir: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
}

/**
 * A served repository whose `main` holds `files` plus whatever `build` adds to the working tree
 * (symlinks, odd names) before the commit. `build` may also commit more itself.
 */
export async function hostileRepo(
  name: string,
  files: Record<string, string | Buffer>,
  build?: (dir: string) => Promise<void> | void,
  served?: Served,
): Promise<HostileRepo> {
  const s = served ?? (await serve());
  const src = await s.repo("mallory", name, { "README.md": "# hostile\n" });
  await writeTree(src.dir, files);
  if (build) await build(src.dir);
  srcGit(src.dir, ["add", "-A"]);
  if (srcGit(src.dir, ["status", "--porcelain"]) !== "") srcGit(src.dir, ["commit", "-q", "-m", "hostile"]);
  return { served: s, dir: src.dir, cloneUrl: src.cloneUrl, owner: "mallory", name };
}

export interface JobView {
  dataDir: string;
  mirror: string;
  checkout: Checkout;
  defaults: DefaultBranchFiles;
  defaultsDir: string;
  definitions: Definitions;
  instructions: ContextSection[];
}

/** The job path of `prepareJob`: sync the mirror over HTTP, check out `ref`, read the default branch's files and instructions. */
export async function runJobPath(repo: HostileRepo, ref = "main"): Promise<JobView> {
  const dataDir = repo.served.dataDir;
  const store = new MirrorStore({ dataDir });
  const lease = await store.sync({ owner: repo.owner, repo: repo.name, cloneUrl: repo.cloneUrl, token: TOKEN, defaultBranch: "main" });
  const work = await tempDir("crewbot-job-");
  const defaultsDir = path.join(work, "default-branch");
  try {
    const checkout = await makeCheckout({ mirror: lease.path, ref, dest: path.join(work, "checkout"), cloneUrl: repo.cloneUrl });
    const defaults = await readDefaultBranchFiles(lease.path, "main", defaultsDir);
    const definitions = await loadDefinitions(defaultsDir);
    // As an issue's job: no file known upfront, so every instruction file of the default branch that fits.
    const instructions = (await repoInstructions(defaultsDir, defaults.files, { review: false })).sections;
    return { dataDir, mirror: lease.path, checkout, defaults, defaultsDir, definitions, instructions };
  } finally {
    await lease.release();
  }
}

/** Everything a job read from the repository, as one string to search for leaked host content. */
export function everythingRead(view: JobView): string {
  const agents = [...view.definitions.agents.values()].map((a) => JSON.stringify(a));
  const chains = [...view.definitions.chains.values()].map((c) => JSON.stringify(c));
  return [...agents, ...chains, ...view.instructions.map((s) => s.text)].join("\n");
}

/** A tool context on a checkout, as the job runner builds it (no sandbox needed for these tools). */
export async function toolContext(root: string, mode: Mode = "write"): Promise<ToolContext> {
  const base = await tempDir("crewbot-tools-");
  const artifacts = path.join(base, "artifacts");
  const scratch = path.join(base, "home");
  await mkdir(artifacts);
  await mkdir(scratch);
  return {
    root,
    mode,
    artifactsDir: artifacts,
    readRoots: [artifacts],
    scratchDir: scratch,
    signal: new AbortController().signal,
    sandbox: { available: false, reason: "not needed" },
    network: false,
    envAllowlist: {},
  };
}

/** A ToolError becomes an error result, as the agent loop turns it into an error tool_result. */
async function asResult(run: Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await run;
  } catch (error) {
    if (error instanceof ToolError) return { output: error.message, isError: true };
    throw error;
  }
}

/** The agents' file tools, called as the agent loop calls them. */
export const tools = {
  read: (ctx: ToolContext, p: string) => asResult(readTool.run({ path: p }, ctx)),
  ls: (ctx: ToolContext, p?: string) => asResult(lsTool.run(p === undefined ? {} : { path: p }, ctx)),
  find: (ctx: ToolContext, pattern: string, p?: string) => asResult(findTool.run(p === undefined ? { pattern } : { pattern, path: p }, ctx)),
  grep: (ctx: ToolContext, pattern: string, backend: "rg" | "js" = "rg", p?: string) =>
    asResult(createGrepTool({ backend }).run(p === undefined ? { pattern } : { pattern, path: p }, ctx)),
  edit: (ctx: ToolContext, p: string, oldText: string, newText: string) => asResult(editTool.run({ path: p, oldText, newText }, ctx)),
  write: (ctx: ToolContext, p: string, content: string) => asResult(writeTool.run({ path: p, content }, ctx)),
};

/** All outputs joined, to search for a leaked secret. */
export const outputs = (results: ToolResult[]) => results.map((r) => r.output).join("\n");

export async function link(target: string, at: string): Promise<void> {
  await mkdir(path.dirname(at), { recursive: true });
  await symlink(target, at);
}

export const exists = existsSync;
