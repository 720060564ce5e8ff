/**
 * `scratch_write {path, content}`: how read-only steps leave notes for later agents — only in the
 * job's `local://` scratch space, outside the checkout, so they still never write the checkout.
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { withToolErrors } from "./errors.js";
import { isLocalPath, LOCAL_PREFIX, resolvePath } from "./paths.js";
import { ToolError, type Tool } from "./types.js";
import { assertScratchRoom } from "./scratch-room.js";
import { writeResolved } from "./write.js";

const schema = z
  .object({
    path: z.string().describe("A local:// path in the job's scratch space, e.g. local://notes.md; parent directories are created."),
    content: z.string().describe("The complete new content of the file."),
  })
  .strict();

type ScratchInput = z.infer<typeof schema>;

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
