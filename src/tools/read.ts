import { constants, type ReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { z } from "zod";
import { LineCapper, MAX_LINE_CHARS, OUTPUT_CAP_BYTES, formatBytes, truncateLine } from "./output.js";
import { resolvePath } from "./paths.js";
import { withToolErrors } from "./errors.js";
import { ToolError, type Tool } from "./types.js";

export const READ_DEFAULT_LIMIT = 2000;
/** Bytes of a line kept while streaming; enough for MAX_LINE_CHARS characters of any UTF-8. */
const LINE_KEEP_BYTES = MAX_LINE_CHARS * 4;
const BINARY_SNIFF_BYTES = 8192;

const schema = z
  .object({
    path: z
      .string()
      .describe("File path relative to the checkout root, local://<path> for the job's scratch space, or an absolute path inside the artifacts directory given in an earlier tool result."),
    offset: z.number().int().min(1).optional().describe("1-based line number to start at (default 1)."),
    limit: z.number().int().min(1).optional().describe(`Maximum number of lines to return (default ${READ_DEFAULT_LIMIT}).`),
  })
  .strict();

type ReadInput = z.infer<typeof schema>;

/** Yields lines one at a time, never holding more than LINE_KEEP_BYTES of one line: huge files and huge lines are fine. */
export async function* streamLines(stream: ReadStream): AsyncGenerator<{ text: string; bytes: number }> {
  let parts: Buffer[] = [];
  let kept = 0;
  let bytes = 0;
  const take = (piece: Buffer): void => {
    bytes += piece.length;
    if (kept < LINE_KEEP_BYTES) {
      const slice = piece.subarray(0, LINE_KEEP_BYTES - kept);
      parts.push(slice);
      kept += slice.length;
    }
  };
  const flush = (): { text: string; bytes: number } => {
    let text = Buffer.concat(parts).toString("utf8");
    if (text.endsWith("\r")) text = text.slice(0, -1);
    const line = { text, bytes };
    parts = [];
    kept = 0;
    bytes = 0;
    return line;
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      take(chunk.subarray(start, nl));
      yield flush();
      start = nl + 1;
    }
    if (start < chunk.length) take(chunk.subarray(start));
  }
  if (bytes > 0) yield flush();
}

function showLine(line: { text: string; bytes: number }): string {
  if (line.bytes > LINE_KEEP_BYTES) return `${line.text.slice(0, MAX_LINE_CHARS)}… [line truncated: ${formatBytes(line.bytes)}]`;
  return truncateLine(line.text);
}

export const readTool: Tool<ReadInput> = {
  name: "read",
  description:
    "Read a text file of the checkout. Returns numbered lines (line number, tab, text). " +
    `Reads up to ${READ_DEFAULT_LIMIT} lines (use offset/limit to page through big files) and at most ${formatBytes(OUTPUT_CAP_BYTES)}; ` +
    `lines longer than ${MAX_LINE_CHARS} characters are cut. Binary files and directories are refused (use ls for directories). ` +
    "Also reads the saved full output of an earlier command, by the absolute path that result gave.",
  schema,
  readOnly: true,
  run: withToolErrors(async (input, ctx) => {
    const r = await resolvePath(ctx, input.path, { access: "read" });
    const st = await stat(r.abs);
    if (st.isDirectory()) throw new ToolError(`${input.path} is a directory; use ls to list it.`);
    if (!st.isFile()) throw new ToolError(`${input.path} is not a regular file.`);
    const offset = input.offset ?? 1;
    const limit = input.limit ?? READ_DEFAULT_LIMIT;

    // O_NOFOLLOW: r.abs is already the real path, so a symlink here means it was swapped in since.
    const fh = await open(r.abs, constants.O_RDONLY | constants.O_NOFOLLOW);
    const capper = new LineCapper(limit, OUTPUT_CAP_BYTES);
    let lineNo = 0;
    try {
      const sniff = Buffer.alloc(BINARY_SNIFF_BYTES);
      const { bytesRead } = await fh.read(sniff, 0, sniff.length, 0);
      if (sniff.subarray(0, bytesRead).includes(0)) {
        throw new ToolError(`${input.path} looks like a binary file (NUL byte in its first 8 KB); not shown.`);
      }
      const stream = fh.createReadStream({ start: 0, autoClose: false });
      try {
        for await (const line of streamLines(stream)) {
          lineNo++;
          if (lineNo < offset) continue;
          if (!capper.add(`${String(lineNo).padStart(6)}\t${showLine(line)}`)) break;
        }
      } finally {
        stream.destroy();
      }
    } finally {
      await fh.close();
    }

    const filesRead = r.inReadRoot ? [] : [r.rel];
    if (lineNo === 0) return { output: `(${input.path} is empty)`, isError: false, filesRead };
    if (lineNo < offset) throw new ToolError(`offset ${offset} is past the end of ${input.path}, which has ${lineNo} lines.`);
    let output = capper.text();
    const last = offset + capper.lines.length - 1;
    if (capper.hit === "lines") {
      output += `\n\n[Showed lines ${offset}-${last}; the file goes on. Continue with offset=${last + 1}.]`;
    } else if (capper.hit === "bytes") {
      output += `\n\n[Output capped at ${formatBytes(OUTPUT_CAP_BYTES)} after line ${last}. Continue with offset=${last + 1}.]`;
    }
    return { output, isError: false, filesRead };
  }),
};
