import type { ContextSection } from "../text/prompt.js";
import { readConfined, type ReadLog } from "../workspace/confined-read.js";
import { AGENT_INSTRUCTION_NAMES, COPILOT_INSTRUCTIONS, instructionKind } from "./instruction-files.js";
import { INSTRUCTION_CAPS, instructionsForPaths, type ChosenInstructions, type InstructionFile, type InstructionRequest } from "./instructions-for-paths.js";

/** The root's instruction files, read when no listing of the tree is at hand. */
export const ROOT_INSTRUCTION_FILES: readonly string[] = [...AGENT_INSTRUCTION_NAMES, COPILOT_INSTRUCTIONS];

/**
 * The instruction files among `paths` below `root` (the default branch's files, or a local
 * checkout), each read up to the per-file cap. Confined like every read of the repository: a file
 * that is a symlink out of `root` is skipped (and logged), it would read the host's files.
 */
export async function readInstructionFiles(root: string, paths: readonly string[], log?: ReadLog): Promise<InstructionFile[]> {
  const files: InstructionFile[] = [];
  for (const rel of paths.filter((p) => instructionKind(p) !== undefined)) {
    const read = await readConfined(root, rel, { maxBytes: INSTRUCTION_CAPS.fileChars, log });
    if (read.ok) files.push({ path: rel, text: read.text, ...(read.truncated ? { truncated: true } : {}) });
  }
  return files;
}

/** The repository's own instructions for the agents, chosen for the request: context (data), never system prompt. */
export async function repoInstructions(root: string, paths: readonly string[], request: InstructionRequest, log?: ReadLog): Promise<ChosenInstructions> {
  return instructionsForPaths(await readInstructionFiles(root, paths, log), request);
}

/** The root's instructions alone (`AGENTS.md`, `CLAUDE.md`, `.github/copilot-instructions.md`), as sections. */
export async function readRepoInstructions(root: string, log?: ReadLog): Promise<ContextSection[]> {
  return (await repoInstructions(root, ROOT_INSTRUCTION_FILES, { review: false }, log)).sections;
}
