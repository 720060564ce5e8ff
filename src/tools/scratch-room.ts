/** The room of the job's scratch space (`local://`), checked by every tool that writes there. */
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { formatBytes } from "./output.js";
import { ToolError, type ToolContext } from "./types.js";

/** One scratch file, and the whole space: notes for other agents, not a second disk. */
export const MAX_SCRATCH_FILE_BYTES = 1024 * 1024;
export const MAX_SCRATCH_TOTAL_BYTES = 16 * 1024 * 1024;

async function spaceUsed(dir: string, except: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && full !== except) total += (await lstat(full)).size;
  }
  return total;
}

/** Refuses a scratch write over the per-file cap or one that would take the space over its total. */
export async function assertScratchRoom(ctx: Pick<ToolContext, "localDir">, abs: string, bytes: number, shown: string): Promise<void> {
  if (bytes > MAX_SCRATCH_FILE_BYTES) {
    throw new ToolError(`${shown} would be ${bytes} bytes; a scratch file holds at most ${formatBytes(MAX_SCRATCH_FILE_BYTES)}.`);
  }
  const used = await spaceUsed(ctx.localDir!, abs);
  if (used + bytes > MAX_SCRATCH_TOTAL_BYTES) {
    throw new ToolError(`The scratch space holds at most ${formatBytes(MAX_SCRATCH_TOTAL_BYTES)} (${formatBytes(used)} used); write less or overwrite a file.`);
  }
}
