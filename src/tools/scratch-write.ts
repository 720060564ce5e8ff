/**
 * `scratch_write {path, content}`: how read-only steps leave notes for later agents — only in the
 * job's `local://` scratch space, outside the checkout, so they still never write the checkout.
 */
import { lstat, mkdir, readdir } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { withToolErrors } from "./errors.js";
import { formatBytes } from "./output.js";
import { isLocalPath, LOCAL_PREFIX, resolvePath } from "./paths.js";
import { ToolError, type Tool, type ToolContext } from "./types.js";
import { writeResolved } from "./write.js";

/** One scratch file, and the whole space: notes for other agents, not a second disk. */
export const MAX_SCRATCH_FILE_BYTES = 1024 * 1024;
export const MAX_SCRATCH_TOTAL_BYTES = 16 * 1024 * 1024;

const schema = z
  .object({
    path: z.string().describe("A local:// path in the job's scratch space, e.g. local://notes.md; parent directories are created."),
    content: z.string().describe("The complete new content of the file."),
  })
  .strict();

type ScratchInput = z.infer<typeof schema>;

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

export const scratchWriteTool: Tool<ScratchInput> = {
  name: "scratch_write",
  description:
    `Create or overwrite a file in the job's scratch space (${LOCAL_PREFIX}<path>), which every agent of this job can read ` +
    "with read, ls and find. It is outside the checkout and never committed: use it for notes to the agents after you.",
  schema,
  readOnly: false,
  run: withToolErrors(async (input, ctx) => {
    if (!isLocalPath(input.path)) {
      throw new ToolError(`Refused path ${JSON.stringify(input.path)}: scratch_write writes only ${LOCAL_PREFIX} paths (the job's scratch space), never the checkout.`);
    }
    const r = await resolvePath(ctx, input.path, { access: "write" });
    if (r.rel === LOCAL_PREFIX) throw new ToolError("local:// is the scratch space itself; name a file, e.g. local://notes.md.");
    await assertScratchRoom(ctx, r.abs, Buffer.byteLength(input.content), input.path);
    await mkdir(path.dirname(r.abs), { recursive: true });
    await writeResolved(r.abs, input.content, input.path);
    return { output: `${r.exists ? "Overwrote" : "Created"} ${r.rel} (${Buffer.byteLength(input.content)} bytes).`, isError: false };
  }),
};
