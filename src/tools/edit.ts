import { readFile, stat } from "node:fs/promises";
import { formatBytes } from "./output.js";
import { createTwoFilesPatch } from "diff";
import { z } from "zod";
import { LineCapper } from "./output.js";
import { isLocalPath, resolvePath } from "./paths.js";
import { assertScratchRoom } from "./scratch-room.js";
import { withToolErrors } from "./errors.js";
import { ToolError, type Tool } from "./types.js";
import { writeResolved } from "./write.js";

const DIFF_CONTEXT_LINES = 2;
const DIFF_MAX_LINES = 120;
export const EDIT_MAX_BYTES = 16 * 1024 * 1024;
const DIFF_MAX_BYTES = 8 * 1024;

const schema = z
  .object({
    path: z.string().describe("File to edit, relative to the checkout root, or local://<path> in the job's scratch space."),
    oldText: z
      .string()
      .min(1)
      .describe("Exact text to replace, including whitespace and indentation. It must occur exactly once in the file; add surrounding lines to make it unique."),
    newText: z.string().describe("Text to put in its place (empty to delete)."),
  })
  .strict();

type EditInput = z.infer<typeof schema>;

/** Occurrences of `needle`, overlapping ones included: "exactly once" must really mean one place. */
export function countOccurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + 1)) n++;
  return n;
}

/** A unified diff of the change, small enough for the model to check its own edit. */
export function shortDiff(name: string, before: string, after: string): string {
  const patch = createTwoFilesPatch(name, name, before, after, undefined, undefined, { context: DIFF_CONTEXT_LINES });
  // Drop jsdiff's "Index:" and "====" banner; keep ---/+++ and the hunks.
  const lines = patch.split("\n").slice(2);
  if (lines.at(-1) === "") lines.pop();
  const capper = new LineCapper(DIFF_MAX_LINES, DIFF_MAX_BYTES);
  for (const l of lines) capper.add(l);
  return capper.omitted > 0 ? `${capper.text()}\n… (${capper.omitted} more diff lines)` : capper.text();
}

export const editTool: Tool<EditInput> = {
  name: "edit",
  description:
    "Replace one exact occurrence of oldText with newText in a file. oldText must match the file exactly (whitespace included) " +
    "and occur exactly once; otherwise nothing changes and the error says how many times it matched. Returns a short diff. " +
    "Read the file first.",
  schema,
  readOnly: false,
  run: withToolErrors(async (input, ctx) => {
    if (ctx.mode !== "write") throw new ToolError("edit is not available in read-only (plan) mode.");
    const r = await resolvePath(ctx, input.path, { access: "write" });
    if (!r.exists) throw new ToolError(`${input.path} does not exist; use write to create a file.`);
    const info = await stat(r.abs);
    if (info.isDirectory()) throw new ToolError(`${input.path} is a directory.`);
    // A repository's 300 MB file would be read whole into memory, twice: change such files with bash.
    if (info.size > EDIT_MAX_BYTES) throw new ToolError(`${input.path} is ${formatBytes(info.size)}; edit works on files up to ${formatBytes(EDIT_MAX_BYTES)} (use bash for larger ones).`);
    const buf = await readFile(r.abs);
    if (buf.includes(0)) throw new ToolError(`${input.path} looks like a binary file; edit only changes text files.`);
    const before = buf.toString("utf8");

    let oldText = input.oldText;
    let newText = input.newText;
    let count = countOccurrences(before, oldText);
    // A CRLF file and an LF oldText (how models usually write) are the same edit.
    if (count === 0 && before.includes("\r\n") && !oldText.includes("\r")) {
      const crlf = (s: string): string => s.replace(/\n/g, "\r\n");
      const n = countOccurrences(before, crlf(oldText));
      if (n > 0) {
        oldText = crlf(oldText);
        newText = crlf(newText);
        count = n;
      }
    }
    if (count === 0) {
      throw new ToolError(
        `oldText was found 0 times in ${input.path}; it must match exactly once, including whitespace and indentation. Read the file and copy the text exactly.`,
      );
    }
    if (count > 1) {
      throw new ToolError(`oldText was found ${count} times in ${input.path}; it must match exactly once. Add surrounding lines to make it unique.`);
    }
    if (oldText === newText) throw new ToolError("oldText and newText are the same; nothing to change.");

    const at = before.indexOf(oldText);
    // Slicing, not String.replace: "$&" and friends in newText must stay literal.
    const after = before.slice(0, at) + newText + before.slice(at + oldText.length);
    if (isLocalPath(input.path)) await assertScratchRoom(ctx, r.abs, Buffer.byteLength(after), input.path);
    await writeResolved(r.abs, after, input.path);
    return { output: `Edited ${r.rel}:\n${shortDiff(r.rel, before, after)}`, isError: false, filesChanged: [r.rel] };
  }),
};
