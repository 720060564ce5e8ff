import { readdir, readlink, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { LineCapper } from "./output.js";
import { hasGitSegment, isInside, resolvePath } from "./paths.js";
import { withToolErrors } from "./errors.js";
import { ToolError, type Tool } from "./types.js";

export const LS_MAX_ENTRIES = 1000;

const schema = z
  .object({
    path: z.string().optional().describe("Directory relative to the checkout root (default: the root), or local:// for the job's scratch space."),
  })
  .strict();

type LsInput = z.infer<typeof schema>;

/** Byte-wise order, the same on every machine (localeCompare is not). */
export function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export const lsTool: Tool<LsInput> = {
  name: "ls",
  description:
    "List a directory of the checkout, sorted by name, dot-files included (.github/, .env.example, …; only .git is left out). " +
    `Directories end with '/', symlinks show 'name -> target'. At most ${LS_MAX_ENTRIES} entries.`,
  schema,
  readOnly: true,
  run: withToolErrors(async (input, ctx) => {
    const shown = input.path ?? ".";
    const r = await resolvePath(ctx, shown, { access: "read" });
    if (!(await stat(r.abs)).isDirectory()) throw new ToolError(`${shown} is not a directory; use read to read a file.`);
    const entries = (await readdir(r.abs, { withFileTypes: true }))
      .filter((e) => !hasGitSegment(e.name))
      .sort((a, b) => byName(a.name, b.name));
    const capper = new LineCapper(LS_MAX_ENTRIES);
    for (const e of entries) {
      if (capper.full) {
        capper.omitted++;
        continue;
      }
      let line = e.isDirectory() ? `${e.name}/` : e.name;
      if (e.isSymbolicLink()) line = await describeLink(path.join(r.abs, e.name), e.name, ctx.root, r.inReadRoot);
      capper.add(line);
    }
    if (entries.length === 0) return { output: `(${shown} is empty)`, isError: false };
    let output = capper.text();
    if (capper.omitted > 0) output += `\n… and ${capper.omitted} more entries (use find with a pattern to narrow).`;
    return { output, isError: false };
  }),
};

/** Marks links whose target the tools will refuse, so the model does not try. */
async function describeLink(abs: string, name: string, root: string, inReadRoot: boolean): Promise<string> {
  const target = await readlink(abs).catch(() => "?");
  const real = await realpath(abs).catch(() => undefined);
  let note = "";
  if (real === undefined) note = " (broken link)";
  else if (!inReadRoot && (!isInside(root, real) || hasGitSegment(path.relative(root, real)))) note = " (outside the checkout: not readable)";
  else if ((await stat(real)).isDirectory()) return `${name}/ -> ${target}`;
  return `${name} -> ${target}${note}`;
}
