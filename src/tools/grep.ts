import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { StringDecoder } from "node:string_decoder";
import { z } from "zod";
import { buildEnv } from "./env.js";
import { displayPath, globFiles, where } from "./find.js";
import { byName } from "./ls.js";
import { LineCapper, formatBytes, truncateLine } from "./output.js";
import { assertSafeGlob, resolvePath } from "./paths.js";
import { findExecutable, runProcess } from "./spawn.js";
import { withToolErrors } from "./errors.js";
import { ToolError, type Tool, type ToolContext } from "./types.js";

export const GREP_MAX_MATCHES = 200;
const GREP_LINE_CHARS = 500;
const RG_TIMEOUT_MS = 120_000;
/** The JS fallback reads whole files; bigger ones are skipped (and said so) rather than loaded. */
const JS_MAX_FILE_BYTES = 16 * 1024 * 1024;

export type GrepBackend = "rg" | "js";

export interface GrepQuery {
  pattern: string;
  ignoreCase: boolean;
  glob?: string;
  /** Real absolute path of the file or directory to search. */
  target: string;
  targetIsDir: boolean;
  maxMatches: number;
  ctx: ToolContext;
}

/** Lines as `path:line:text`, paths relative to the checkout, in rg's `--sort path` order. */
export interface GrepHits {
  lines: string[];
  /** More matches exist than maxMatches. */
  more: boolean;
  notes: string[];
}

const schema = z
  .object({
    pattern: z.string().describe("Regular expression to search for (Rust/JS regex syntax; escape literal characters like '(' or '.')."),
    path: z.string().optional().describe("File or directory to search, relative to the checkout root (default: the root)."),
    glob: z.string().optional().describe("Only search files whose name matches this glob, e.g. '*.ts' or '*.{js,jsx}'; a leading '!' excludes."),
    ignoreCase: z.boolean().optional().describe("Case-insensitive search (default false)."),
  })
  .strict();

type GrepInput = z.infer<typeof schema>;

/** rg's traversal order: component by component, each directory's entries by name. */
export function byPathSegments(a: string, b: string): number {
  const as = a.split("/");
  const bs = b.split("/");
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const c = byName(as[i] ?? "", bs[i] ?? "");
    if (c !== 0) return c;
  }
  return as.length - bs.length;
}

export async function searchWithRg(q: GrepQuery): Promise<GrepHits> {
  const rg = findExecutable("rg");
  if (rg === undefined) throw new Error("rg is not installed");
  const { ctx } = q;
  const args = ["--no-config", "--hidden", "--no-ignore", "--no-follow", "--line-number", "--no-heading", "--with-filename"];
  args.push("--color", "never", "--sort", "path", "--no-messages", q.ignoreCase ? "--ignore-case" : "--case-sensitive");
  // The user's glob first: with rg the last matching glob wins, so the exclusions below always apply.
  if (q.glob !== undefined) args.push("--glob", q.glob);
  args.push("--iglob", "!.git", "--glob", "!node_modules", "-e", q.pattern, "--");
  const rel = displayPath(ctx, q.target);
  if (rel !== ".") args.push(rel);

  const hits: GrepHits = { lines: [], more: false, notes: [] };
  const stop = new AbortController();
  const decoder = new StringDecoder("utf8");
  let pending = "";
  let stderr = "";
  const takeLine = (line: string): void => {
    if (hits.more || line === "") return;
    if (/: binary file matches \(found "\\0" byte around offset \d+\)$/.test(line)) return;
    if (hits.lines.length >= q.maxMatches) {
      hits.more = true;
      stop.abort();
      return;
    }
    hits.lines.push(line.endsWith("\r") ? line.slice(0, -1) : line);
  };
  const res = await runProcess([rg, ...args], {
    cwd: ctx.root,
    env: buildEnv(ctx),
    timeoutMs: RG_TIMEOUT_MS,
    signal: AbortSignal.any([ctx.signal, stop.signal]),
    onData: (chunk, stream) => {
      if (stream === "stderr") {
        if (stderr.length < 4000) stderr += chunk.toString("utf8");
        return;
      }
      const parts = (pending + decoder.write(chunk)).split("\n");
      pending = parts.pop() ?? "";
      for (const p of parts) takeLine(p);
    },
  });
  takeLine(pending + decoder.end());
  if (res.spawnError !== undefined) throw new ToolError(`grep could not start rg: ${res.spawnError}`);
  if (res.timedOut) hits.notes.push(`The search timed out after ${RG_TIMEOUT_MS / 1000} s; results are partial.`);
  if (res.exitCode === 2 && hits.lines.length === 0) {
    const msg = stderr.trim();
    throw new ToolError(/regex/i.test(msg) ? `Invalid regex ${q.pattern}:\n${msg}` : `grep failed: ${msg || "rg exited with status 2"}`);
  }
  return hits;
}

function compile(pattern: string, ignoreCase: boolean): RegExp {
  const flags = ignoreCase ? "i" : "";
  try {
    // Unicode mode first (closest to rg); some patterns are only valid without it.
    return new RegExp(pattern, `${flags}u`);
  } catch {
    try {
      return new RegExp(pattern, flags);
    } catch (err) {
      throw new ToolError(`Invalid regex ${pattern}: ${(err as Error).message}`);
    }
  }
}

/** A glob without a slash matches the file name at any depth, as in rg (gitignore rules). */
function deep(glob: string): string {
  return glob.includes("/") ? glob : `**/${glob}`;
}

/** Same contract as searchWithRg, in plain Node: skips .git, node_modules, symlinks and binary files. */
export async function searchWithJs(q: GrepQuery): Promise<GrepHits> {
  const re = compile(q.pattern, q.ignoreCase);
  const hits: GrepHits = { lines: [], more: false, notes: [] };
  let files: string[];
  if (!q.targetIsDir) {
    files = [q.target];
  } else {
    const negated = q.glob?.startsWith("!") === true;
    const include = q.glob === undefined || negated ? "**" : deep(q.glob);
    const ignore = ["**/node_modules", "**/node_modules/**", ...(negated && q.glob ? [deep(q.glob.slice(1))] : [])];
    files = (await globFiles(q.target, [include], ignore, q.ctx.signal)).sort(byPathSegments).map((f) => path.join(q.target, f));
  }
  const skipped: string[] = [];
  for (const file of files) {
    if (q.ctx.signal.aborted) throw new ToolError("grep was cancelled.");
    const shown = displayPath(q.ctx, file);
    const st = await stat(file).catch(() => undefined);
    // Only regular files: reading a FIFO would block forever (rg skips them too).
    if (st === undefined || !st.isFile()) continue;
    if (st.size > JS_MAX_FILE_BYTES) {
      skipped.push(shown);
      continue;
    }
    const buf = await readFile(file);
    if (buf.includes(0)) continue;
    const lines = buf.toString("utf8").split("\n");
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i] ?? "";
      if (line.endsWith("\r")) line = line.slice(0, -1);
      if (i === lines.length - 1 && line === "") break;
      if (!re.test(line)) continue;
      if (hits.lines.length >= q.maxMatches) {
        hits.more = true;
        break;
      }
      hits.lines.push(`${shown}:${i + 1}:${line}`);
    }
    if (hits.more) break;
  }
  if (skipped.length > 0) hits.notes.push(`Skipped files over ${formatBytes(JS_MAX_FILE_BYTES)}: ${skipped.slice(0, 5).join(", ")}${skipped.length > 5 ? ", …" : ""}`);
  return hits;
}

/** rg when installed, else the JS fallback; `backend` forces one (tests cover both). */
export function createGrepTool(opts: { backend?: GrepBackend } = {}): Tool<GrepInput> {
  return {
    name: "grep",
    description:
      "Search file contents with a regular expression. Returns matching lines as 'path:line:text', paths relative to the checkout root, " +
      `sorted by path, at most ${GREP_MAX_MATCHES} matches. Searches hidden files; skips .git, node_modules, binary files and symlinks. ` +
      "Narrow with path (a file or directory) and glob (file names, e.g. '*.ts').",
    schema,
    readOnly: true,
    run: withToolErrors(async (input, ctx) => {
      if (input.glob !== undefined) assertSafeGlob(input.glob, "glob");
      const shown = input.path ?? ".";
      const r = await resolvePath(ctx, shown, { access: "read" });
      const st = await stat(r.abs);
      if (!st.isDirectory() && !st.isFile()) throw new ToolError(`${shown} is neither a file nor a directory.`);
      const query: GrepQuery = {
        pattern: input.pattern,
        ignoreCase: input.ignoreCase ?? false,
        ...(input.glob !== undefined ? { glob: input.glob } : {}),
        target: r.abs,
        targetIsDir: st.isDirectory(),
        maxMatches: GREP_MAX_MATCHES,
        ctx,
      };
      const backend = opts.backend ?? (findExecutable("rg") !== undefined ? "rg" : "js");
      const hits = backend === "rg" ? await searchWithRg(query) : await searchWithJs(query);
      if (hits.lines.length === 0) {
        // The pattern as the model wrote it: JSON.stringify would double every backslash of a regex.
        return { output: [`No matches for ${input.pattern} ${st.isFile() ? `in ${shown}` : where(shown)}.`, ...hits.notes].join("\n"), isError: false };
      }
      const capper = new LineCapper(GREP_MAX_MATCHES);
      for (const line of hits.lines) capper.add(truncateLine(line, GREP_LINE_CHARS));
      const notes = [...hits.notes];
      if (hits.more || capper.omitted > 0) {
        notes.push(`[Showing the first ${capper.lines.length} matches; there are more. Narrow the pattern, path or glob.]`);
      }
      return { output: [capper.text(), ...notes].join("\n"), isError: false };
    }),
  };
}

export const grepTool = createGrepTool();
