import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { resolveRef, SHA } from "./refs.js";
import { git, gitBuffer } from "./git.js";

/**
 * Files a repository uses to instruct crewbot. They are always taken from the default branch:
 * a pull request must not be able to change the agents, chains, config or instructions that
 * review it.
 */
const DEFINITION_DIRS = [".github/crewbot/agents", ".github/crewbot/prompts", ".github/crewbot/rules"];
const DEFINITION_FILES = [".github/crewbot.yml", "AGENTS.md", "CLAUDE.md"];
/** Skill folders (`<dir>/<skill>/SKILL.md` and the skill's other files), all of their files. */
export const SKILL_TREES = [".github/skills", ".claude/skills", ".agents/skills"];
/** A skill is a handful of files; more than this across the skill folders are skipped. */
export const MAX_SKILL_TREE_FILES = 500;

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
  if (DEFINITION_FILES.includes(file) || inSkillTree(file)) return true;
  const dir = path.posix.dirname(file);
  return DEFINITION_DIRS.includes(dir) && file.endsWith(".md");
}

/**
 * Writes the default branch's crewbot files (`.github/crewbot/{agents,prompts}/*.md`,
 * `.github/crewbot.yml`, `AGENTS.md`, `CLAUDE.md`, the skill folders) from the mirror into the fresh directory
 * `dest`, for `loadDefinitions(dest)` and `readRepoInstructions(dest)`. Read with `ls-tree` and
 * `cat-file`, never through a working tree: only regular blobs are written — a symlink
 * (`AGENTS.md -> /etc/passwd`) or a submodule is skipped, so nothing of the host can be read.
 */
export async function readDefaultBranchFiles(mirror: string, defaultBranch: string, dest: string): Promise<DefaultBranchFiles> {
  if (defaultBranch.startsWith("refs/") || SHA.test(defaultBranch)) {
    throw new Error(`default branch must be a branch name, not ${JSON.stringify(defaultBranch)}`);
  }
  const sha = await resolveRef(mirror, defaultBranch);
  await mkdir(dest, { recursive: true });
  if ((await readdir(dest)).length > 0) throw new Error(`destination is not empty: ${dest}`);

  const listing = await git(
    ["ls-tree", "-r", "-l", "-z", sha, "--", ...DEFINITION_DIRS, ...DEFINITION_FILES, ...SKILL_TREES],
    { cwd: mirror, workspace: true },
  );
  const result: DefaultBranchFiles = { sha, files: [], skipped: [] };
  let skillFiles = 0;
  for (const entry of parseLsTree(listing)) {
    // Sub-folders of the agents dir are not read; a symlinked agents dir itself is worth reporting.
    if (!wanted(entry.path) && !DEFINITION_DIRS.includes(entry.path) && !SKILL_TREES.includes(entry.path)) continue;
    if (inSkillTree(entry.path) && ++skillFiles > MAX_SKILL_TREE_FILES) {
      result.skipped.push({ path: entry.path, reason: `more than ${MAX_SKILL_TREE_FILES} files in the skill folders` });
    } else if (entry.mode === "120000") result.skipped.push({ path: entry.path, reason: "symlink" });
    else if (entry.mode === "160000") result.skipped.push({ path: entry.path, reason: "submodule" });
    else if (entry.type !== "blob" || (entry.mode !== "100644" && entry.mode !== "100755")) {
      result.skipped.push({ path: entry.path, reason: `not a regular file (mode ${entry.mode})` });
    } else if (entry.size > MAX_DEFAULT_BRANCH_FILE_BYTES) {
      result.skipped.push({ path: entry.path, reason: `larger than ${MAX_DEFAULT_BRANCH_FILE_BYTES / 1024} KB` });
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
