import { stat } from "node:fs/promises";
import path from "node:path";
import { glob } from "tinyglobby";
import { z } from "zod";
import { byName } from "./ls.js";
import { LineCapper } from "./output.js";
import { assertSafeGlob, hasGitSegment, isInside, localName, resolvePath } from "./paths.js";
import { withToolErrors } from "./errors.js";
import { ToolError, type Tool, type ToolContext } from "./types.js";

export const FIND_MAX_RESULTS = 1000;

/** .git anywhere, in any case; tinyglobby's ignore is case-sensitive, so the results are filtered too. */
export const GIT_IGNORE_GLOBS = ["**/.git", "**/.git/**"];

const schema = z
  .object({
    pattern: z.string().min(1).describe("Glob pattern, e.g. '**/*.ts', 'src/**/test_*.py', '*.{js,json}'. Relative; no '..'."),
    path: z.string().optional().describe("Directory to search in, relative to the checkout root (default: the root), or local:// for the job's scratch space."),
  })
  .strict();

type FindInput = z.infer<typeof schema>;

/**
 * Files below `dir` matching `pattern`, relative to `dir`. Symlinks are neither followed nor
 * listed, so nothing outside the checkout is reached; results that would leave `dir` or
 * touch .git are dropped even if the pattern somehow produced them.
 */
export async function globFiles(dir: string, patterns: string[], ignore: string[], signal?: AbortSignal): Promise<string[]> {
  const found = await glob(patterns, {
    cwd: dir,
    dot: true,
    followSymbolicLinks: false,
    ignore: [...GIT_IGNORE_GLOBS, ...ignore],
    onlyFiles: true,
    expandDirectories: false,
    ...(signal !== undefined ? { signal } : {}),
  });
  return found.filter((f) => isInside(dir, path.resolve(dir, f)) && !hasGitSegment(f));
}

/** How a path is shown to the model: relative to the checkout, absolute when outside it (artifacts). */
export function displayPath(ctx: Pick<ToolContext, "root" | "localDir">, abs: string): string {
  if (ctx.localDir !== undefined && isInside(ctx.localDir, abs)) return localName(ctx.localDir, abs);
  return isInside(ctx.root, abs) ? path.relative(ctx.root, abs) || "." : abs;
}

/** The searched folder named plainly: "in the checkout" rather than "in .". */
export function where(shown: string): string {
  return shown === "." || shown === "" ? "in the checkout" : `under ${shown}`;
}

export const findTool: Tool<FindInput> = {
  name: "find",
  description:
    "Find files by glob pattern (not directories). Hidden files are included, .git is skipped, symlinks are not followed. " +
    `Returns paths relative to the checkout root, sorted, at most ${FIND_MAX_RESULTS}.`,
  schema,
  readOnly: true,
  run: withToolErrors(async (input, ctx) => {
    assertSafeGlob(input.pattern);
    const shown = input.path ?? ".";
    const r = await resolvePath(ctx, shown, { access: "read" });
    if (!(await stat(r.abs)).isDirectory()) throw new ToolError(`${shown} is not a directory.`);
    const files = (await globFiles(r.abs, [input.pattern], [], ctx.signal))
      .map((f) => displayPath(ctx, path.join(r.abs, f)))
      .sort(byName);
    if (files.length === 0) return { output: `No file ${where(shown)} matches ${input.pattern}.`, isError: false };
    const capper = new LineCapper(FIND_MAX_RESULTS);
    for (const f of files) capper.add(f);
    let output = capper.text();
    if (capper.omitted > 0) output += `\n… and ${capper.omitted} more (narrow the pattern or the path).`;
    return { output, isError: false };
  }),
};
