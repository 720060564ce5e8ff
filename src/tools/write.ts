import { constants } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { formatBytes } from "./output.js";
import { isLocalPath, resolvePath } from "./paths.js";
import { assertScratchRoom } from "./scratch-room.js";
import { withToolErrors } from "./errors.js";
import { ToolError, type Tool } from "./types.js";

const schema = z
  .object({
    path: z.string().describe("File path relative to the checkout root, or local://<path> for the job's scratch space (never committed); parent directories are created."),
    content: z.string().describe("The complete new content of the file."),
  })
  .strict();

type WriteInput = z.infer<typeof schema>;

/**
 * Writes an already-resolved real path. O_NOFOLLOW: resolvePath checked the real path, so a
 * symlink in its place now means someone swapped one in; refuse rather than follow it.
 */
export async function writeResolved(abs: string, data: string | Buffer, display: string): Promise<void> {
  let fh;
  try {
    fh = await open(abs, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EISDIR") throw new ToolError(`${display} is a directory.`);
    if (code === "ELOOP") throw new ToolError(`Refused path ${JSON.stringify(display)}: it became a symlink.`);
    if (code === "EROFS" || code === "EACCES" || code === "EPERM") throw new ToolError(`Cannot write ${display}: ${code}.`);
    throw err;
  }
  try {
    await fh.writeFile(data);
  } finally {
    await fh.close();
  }
}

export const writeTool: Tool<WriteInput> = {
  name: "write",
  description:
    "Create or overwrite a file in the checkout with the given content (parent directories are created). " +
    "Prefer edit for changing part of an existing file.",
  schema,
  readOnly: false,
  run: withToolErrors(async (input, ctx) => {
    if (ctx.mode !== "write") throw new ToolError("write is not available in read-only (plan) mode.");
    const r = await resolvePath(ctx, input.path, { access: "write" });
    if (r.rel === ".") throw new ToolError("The checkout root is a directory; name a file.");
    if (isLocalPath(input.path)) await assertScratchRoom(ctx, r.abs, Buffer.byteLength(input.content), input.path);
    // Safe: resolvePath rooted the missing part at a real, checked ancestor, so these are fresh directories.
    try {
      await mkdir(path.dirname(r.abs), { recursive: true });
    } catch (err) {
      throw new ToolError(`Cannot create the parent directories of ${input.path}: ${(err as Error).message}`);
    }
    await writeResolved(r.abs, input.content, input.path);
    const bytes = Buffer.byteLength(input.content);
    return {
      output: `${r.exists ? "Overwrote" : "Created"} ${r.rel} (${bytes} bytes${bytes >= 1024 ? `, ${formatBytes(bytes)}` : ""}).`,
      isError: false,
      filesChanged: [r.rel],
    };
  }),
};
