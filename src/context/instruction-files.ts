/**
 * The files a repository instructs agents with, by name: the one list the default branch's reader
 * (jobs/default-branch.ts), `crewbot run` and the chooser (instructions-for-paths.ts) share.
 */
import path from "node:path";

/** `AGENTS.md` and `CLAUDE.md`, at the root or in any folder: the nearest one above a file covers it. */
export const AGENT_INSTRUCTION_NAMES: readonly string[] = ["AGENTS.md", "CLAUDE.md"];
/** GitHub Copilot's repository-wide instructions. */
export const COPILOT_INSTRUCTIONS = ".github/copilot-instructions.md";
/** GitHub Copilot's path-specific instructions: `NAME.instructions.md` within or below this folder, frontmatter `applyTo`. */
export const PATH_INSTRUCTIONS_DIR = ".github/instructions";
const PATH_INSTRUCTIONS_SUFFIX = ".instructions.md";

export type InstructionKind = "agents" | "copilot" | "path-specific";

/** Which kind of instruction file a repository path is, if any. */
export function instructionKind(file: string): InstructionKind | undefined {
  const name = path.posix.basename(file);
  if (AGENT_INSTRUCTION_NAMES.includes(name)) return "agents";
  if (file === COPILOT_INSTRUCTIONS) return "copilot";
  if (file.startsWith(`${PATH_INSTRUCTIONS_DIR}/`) && name.endsWith(PATH_INSTRUCTIONS_SUFFIX) && name.length > PATH_INSTRUCTIONS_SUFFIX.length) {
    return "path-specific";
  }
  return undefined;
}

/**
 * git pathspecs of every instruction file of a tree (for `git diff-tree` and `git ls-files`;
 * `ls-tree` takes no glob magic). `**` also matches no folder, so the root's files are in.
 * Matches inside a folder so named (`x/AGENTS.md/y`) come too: filter with `instructionKind`.
 */
export const INSTRUCTION_PATHSPECS: readonly string[] = [
  ...AGENT_INSTRUCTION_NAMES.map((name) => `:(glob)**/${name}`),
  `:(literal)${COPILOT_INSTRUCTIONS}`,
  `:(glob)${PATH_INSTRUCTIONS_DIR}/**/*${PATH_INSTRUCTIONS_SUFFIX}`,
];

/** Folder depth, then path: the root's files first, then the shallower ones (what a cap keeps). */
export function shallowFirst(a: string, b: string): number {
  return a.split("/").length - b.split("/").length || (a < b ? -1 : a > b ? 1 : 0);
}
