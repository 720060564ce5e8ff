import { open, realpath } from "node:fs/promises";
import path from "node:path";
import type { ContextSection } from "../chain/prompt.js";

export const INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md"];
const MAX_BYTES = 32 * 1024;

/**
 * The repository's own instructions for agents, given as context (data), never as system prompt.
 * A file that is a symlink out of the checkout is skipped: it would read the host's files.
 */
export async function readRepoInstructions(root: string): Promise<ContextSection[]> {
  const realRoot = await realpath(root);
  const sections: ContextSection[] = [];
  for (const name of INSTRUCTION_FILES) {
    const text = await readConfined(realRoot, name);
    if (text !== undefined) sections.push({ source: name, text });
  }
  return sections;
}

async function readConfined(root: string, name: string): Promise<string | undefined> {
  let real: string;
  try {
    real = await realpath(path.join(root, name));
  } catch {
    return undefined;
  }
  if (!real.startsWith(root + path.sep)) return undefined;
  const file = await open(real, "r").catch(() => undefined);
  if (!file) return undefined;
  try {
    if (!(await file.stat()).isFile()) return undefined;
    const buffer = Buffer.alloc(MAX_BYTES + 1);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, Math.min(bytesRead, MAX_BYTES)).toString("utf8");
    return bytesRead > MAX_BYTES ? `${text}\n[… ${name} truncated at ${MAX_BYTES / 1024} KB]` : text;
  } finally {
    await file.close();
  }
}
