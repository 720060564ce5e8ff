import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { INSTRUCTION_PATHSPECS, instructionKind, shallowFirst } from "../context/instruction-files.js";
import { LEARNINGS_PATH } from "../learnings/types.js";
import { resolveRef, SHA } from "../workspace/refs.js";
import { git, gitBuffer } from "../workspace/git.js";

/**
 * Files a repository uses to instruct crewbot. They are always taken from the default branch:
 * a pull request must not be able to change the agents, chains, config or instructions that
 * review it.
 */
const DEFINITION_DIRS = [".github/crewbot/agents", ".github/crewbot/prompts", ".github/crewbot/rules"];
/** The config, and the team's merged learnings (context of the reviewer and the planner). */
const DEFINITION_FILES = [".github/crewbot.yml", LEARNINGS_PATH];
/** Skill folders (`<dir>/<skill>/SKILL.md` and the skill's other files), all of their files. */
export const SKILL_TREES = [".github/skills", ".claude/skills", ".agents/skills"];
/** A skill is a handful of files; more than this across the skill folders are skipped. */
export const MAX_SKILL_TREE_FILES = 500;

/**
 * Instruction files (context/instruction-files.ts: `AGENTS.md`/`CLAUDE.md` in any folder, Copilot's)
 * beyond these, the deepest first, are skipped: a monorepo has dozens, not thousands.
 */
export const MAX_INSTRUCTION_FILES = 200;
export const MAX_INSTRUCTION_BYTES = 2 * 1024 * 1024;

/** Larger files are skipped: a definition is a few KB (same cap as the definition loader). */
export const MAX_DEFAULT_BRANCH_FILE_BYTES = 256 * 1024;

export interface DefaultBranchFiles {
  /** The default branch's commit the files come from. */
  sha: string;
  /** Repository-relative paths written under `dest`. */
  files: string[];
  /** Matching paths not written, and why (symlink, submodule, too large). */
  skipped: { path: string; reason: string }[];
}

interface TreeEntry {
  mode: string;
  type: string;
  oid: string;
  size: number;
  path: string;
}

function inSkillTree(file: string): boolean {
  // Below `<tree>/<skill>/`: files directly in the tree belong to no skill.
  return SKILL_TREES.some((tree) => file.startsWith(`${tree}/`) && file.slice(tree.length + 1).includes("/"));
}

function wanted(file: string): boolean {
  if (DEFINITION_FILES.includes(file) || inSkillTree(file) || instructionKind(file) !== undefined) return true;
  const dir = path.posix.dirname(file);
  return DEFINITION_DIRS.includes(dir) && file.endsWith(".md");
}

/**
 * Writes the default branch's crewbot files (`.github/crewbot/{agents,prompts}/*.md`,
 * `.github/crewbot.yml`, `.github/crewbot/learnings.md`, the instruction files — `AGENTS.md` and `CLAUDE.md` of every folder,
 * Copilot's — and the skill folders) from the mirror into the fresh directory `dest`, for
 * `loadDefinitions(dest)` and `repoInstructions(dest, …)`. Read with `ls-tree` and `cat-file`,
 * never through a working tree: only regular blobs are written — a symlink
 * (`AGENTS.md -> /etc/passwd`) or a submodule is skipped, so nothing of the host can be read.
 */
export async function readDefaultBranchFiles(mirror: string, defaultBranch: string, dest: string): Promise<DefaultBranchFiles> {
  if (defaultBranch.startsWith("refs/") || SHA.test(defaultBranch)) {
    throw new Error(`default branch must be a branch name, not ${JSON.stringify(defaultBranch)}`);
  }
  const sha = await resolveRef(mirror, defaultBranch);
  await mkdir(dest, { recursive: true });
  if ((await readdir(dest)).length > 0) throw new Error(`destination is not empty: ${dest}`);

  const result: DefaultBranchFiles = { sha, files: [], skipped: [] };
  const instructions = await instructionPaths(mirror, sha);
  for (const file of instructions.slice(MAX_INSTRUCTION_FILES)) result.skipped.push({ path: file, reason: `more than ${MAX_INSTRUCTION_FILES} instruction files` });
  // Exact paths, taken literally: a folder named `:(glob)x` is a folder, not pathspec magic.
  const exact = instructions.slice(0, MAX_INSTRUCTION_FILES).map((file) => `:(literal)${file}`);
  const listing = await git(
    ["ls-tree", "-r", "-l", "-z", sha, "--", ...DEFINITION_DIRS, ...DEFINITION_FILES, ...SKILL_TREES, ...exact],
    { cwd: mirror, workspace: true },
  );
  let skillFiles = 0;
  let instructionBytes = 0;
  for (const entry of inReadOrder(parseLsTree(listing))) {
    // Sub-folders of the agents dir are not read; a symlinked agents dir itself is worth reporting.
    if (!wanted(entry.path) && !DEFINITION_DIRS.includes(entry.path) && !SKILL_TREES.includes(entry.path)) continue;
    const instruction = instructionKind(entry.path) !== undefined && !inSkillTree(entry.path);
    if (inSkillTree(entry.path) && ++skillFiles > MAX_SKILL_TREE_FILES) {
      result.skipped.push({ path: entry.path, reason: `more than ${MAX_SKILL_TREE_FILES} files in the skill folders` });
    } else if (entry.mode === "120000") result.skipped.push({ path: entry.path, reason: "symlink" });
    else if (entry.mode === "160000") result.skipped.push({ path: entry.path, reason: "submodule" });
    else if (entry.type !== "blob" || (entry.mode !== "100644" && entry.mode !== "100755")) {
      result.skipped.push({ path: entry.path, reason: `not a regular file (mode ${entry.mode})` });
    } else if (entry.size > MAX_DEFAULT_BRANCH_FILE_BYTES) {
      result.skipped.push({ path: entry.path, reason: `larger than ${MAX_DEFAULT_BRANCH_FILE_BYTES / 1024} KB` });
    } else if (instruction && (instructionBytes += entry.size) > MAX_INSTRUCTION_BYTES) {
      result.skipped.push({ path: entry.path, reason: `instruction files over ${MAX_INSTRUCTION_BYTES / 1024 / 1024} MB in all` });
    } else {
      const content = await gitBuffer(["cat-file", "blob", entry.oid], { cwd: mirror, workspace: true });
      const target = path.join(dest, ...entry.path.split("/"));
      await mkdir(path.dirname(target), { recursive: true });
      // `wx`: dest is fresh, so an existing file would mean something wrote there behind our back.
      await writeFile(target, content, { flag: "wx", mode: 0o644 });
      result.files.push(entry.path);
    }
  }
  return result;
}

/**
 * Every instruction file's path in the tree `sha`, the root's first, then by depth. `ls-tree`
 * takes no glob pathspec, and listing a large tree whole is slow; `diff-tree` against the empty
 * tree takes `:(glob)**\/AGENTS.md` and walks the trees only (no blob is read).
 */
async function instructionPaths(mirror: string, sha: string): Promise<string[]> {
  const opts = { cwd: mirror, workspace: true };
  // The empty tree's id in this repository's hash (SHA-1 or SHA-256); git knows it without storing it.
  const empty = (await git(["hash-object", "-t", "tree", "/dev/null"], opts)).trim();
  const raw = await git(["diff-tree", "-r", "-z", "--no-renames", empty, sha, "--", ...INSTRUCTION_PATHSPECS], opts);
  // `:<modes> <oids> A\0<path>\0` per file.
  const fields = raw.split("\0");
  const paths: string[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const file = fields[i + 1]!;
    if (fields[i]!.startsWith(":") && instructionKind(file) !== undefined) paths.push(file);
  }
  return paths.sort(shallowFirst);
}

/** The instruction files after the rest, shallowest first: the byte cap keeps the root's and the near ones. */
function inReadOrder(entries: TreeEntry[]): TreeEntry[] {
  const isInstruction = (e: TreeEntry) => instructionKind(e.path) !== undefined && !inSkillTree(e.path);
  return [...entries.filter((e) => !isInstruction(e)), ...entries.filter(isInstruction).sort((a, b) => shallowFirst(a.path, b.path))];
}

/** `git ls-tree -l -z` lines: `<mode> <type> <oid> <size>\t<path>`, NUL-terminated. */
function parseLsTree(output: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const line of output.split("\0")) {
    const match = /^(\d{6}) (\w+) ([0-9a-f]+) +(-|\d+)\t(.+)$/s.exec(line);
    if (!match) continue;
    const [, mode, type, oid, size, file] = match as unknown as [string, string, string, string, string, string];
    entries.push({ mode, type, oid, size: size === "-" ? 0 : Number(size), path: file });
  }
  return entries;
}
