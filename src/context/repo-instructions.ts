import type { ContextSection } from "../chain/prompt.js";
import { readConfined, type ReadLog } from "../tools/confined-read.js";

export const INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md"];
const MAX_BYTES = 32 * 1024;

/**
 * The repository's own instructions for agents, given as context (data), never as system prompt.
 * A file that is a symlink out of the checkout is skipped: it would read the host's files.
 */
export async function readRepoInstructions(root: string, log?: ReadLog): Promise<ContextSection[]> {
  const sections: ContextSection[] = [];
  for (const name of INSTRUCTION_FILES) {
    const read = await readConfined(root, name, { maxBytes: MAX_BYTES, log });
    if (!read.ok) continue;
    sections.push({ source: name, text: read.truncated ? `${read.text}\n[… ${name} truncated at ${MAX_BYTES / 1024} KB]` : read.text });
  }
  return sections;
}
