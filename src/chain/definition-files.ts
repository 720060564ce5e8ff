/**
 * What agent and chain files share: frontmatter (gray-matter with the `yaml` package as its only
 * engine), turning zod issues into DefinitionErrors, and reading layered definition directories.
 */
import { realpath } from "node:fs/promises";
import path from "node:path";
import matter from "gray-matter";
import { parseDocument } from "yaml";
import type { z } from "zod";
import { listConfined, readConfined } from "../workspace/confined-read.js";
import { DefinitionError } from "./types.js";

/** Definition files above this size are refused (a system prompt is a few KB). */
export const MAX_DEFINITION_BYTES = 256 * 1024;

/**
 * A frontmatter is a few keys. A longer one is refused before it is parsed: gray-matter's pattern
 * for YAML comments rescans a run of blank lines from each of them, and YAML's duplicate-key check
 * compares each key with every other.
 */
export const MAX_FRONTMATTER_CHARS = 8 * 1024;

/** Where to look for definitions, in priority order, and which of them to distrust. */
export interface LoadOptions {
  /**
   * A checkout root. Every dir inside it (lexically) is untrusted: after resolving symlinks it
   * must still be inside the root, and its files are shown relative to the root in errors
   * (`.github/crewbot/agents/x.md`). Dirs outside it (the bundled ones) are trusted.
   */
  confineTo?: string;
}

class YamlFailure extends Error {
  constructor(
    readonly line: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

function parseYaml(source: string): object {
  const doc = parseDocument(source, { prettyErrors: true, uniqueKeys: true });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) {
    const short = problem.message.split(/ at line \d+, column \d+/)[0]!.trim();
    throw new YamlFailure(problem.linePos?.[0]?.line, short);
  }
  // maxAliasCount guards against alias bombs ("billion laughs").
  return doc.toJS({ maxAliasCount: 100 }) as object;
}

function refuse(): never {
  throw new YamlFailure(undefined, "only YAML frontmatter is supported");
}

// Only YAML. gray-matter also ships a `javascript` engine that evals the frontmatter, and a
// repository's definition files are untrusted, so every other engine is replaced by a refusal.
const MATTER_OPTIONS = {
  language: "yaml",
  engines: { yaml: parseYaml, yml: parseYaml, javascript: refuse, js: refuse, json: refuse, coffee: refuse },
};

/**
 * Splits `---` YAML frontmatter from the body. No frontmatter gives `{}`. Broken YAML throws
 * a DefinitionError on field `frontmatter` naming the line (numbered as in the file).
 */
export function readFrontmatter(text: string, file: string): { data: Record<string, unknown>; body: string } {
  const source = text.replace(/^\uFEFF/, "");
  const first = /^---([^\n]*)/.exec(source);
  // `---js` etc.: a language after the opening delimiter.
  if (first && !first[1]!.startsWith("-")) {
    const language = first[1]!.trim().toLowerCase();
    if (language !== "" && language !== "yaml" && language !== "yml") {
      throw new DefinitionError(file, "frontmatter", `only YAML frontmatter is supported, not "${first[1]!.trim()}"`);
    }
    // Up to the closing `---` (gray-matter's rule), or to the end when it never closes.
    const close = source.indexOf("\n---", 3);
    const length = close < 0 ? source.length : close;
    if (length > MAX_FRONTMATTER_CHARS) {
      throw new DefinitionError(file, "frontmatter", `longer than ${MAX_FRONTMATTER_CHARS / 1024} KB (${length} characters); a definition's frontmatter is a few keys`);
    }
  }
  let parsed: matter.GrayMatterFile<string>;
  try {
    // Options are always passed, which also keeps gray-matter from caching results by content.
    parsed = matter(source, MATTER_OPTIONS as never);
  } catch (error) {
    if (error instanceof YamlFailure) {
      const where = error.line !== undefined ? `invalid YAML at line ${error.line}: ` : "";
      throw new DefinitionError(file, "frontmatter", `${where}${error.message}`);
    }
    throw new DefinitionError(file, "frontmatter", (error as Error).message);
  }
  const data: unknown = parsed.data;
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new DefinitionError(file, "frontmatter", "must be a mapping of keys to values");
  }
  return { data: data as Record<string, unknown>, body: parsed.content };
}

/** The first zod issue as a DefinitionError naming the field (an unknown key names that key). */
export function issueToError(file: string, issues: readonly z.core.$ZodIssue[], allowed: readonly string[]): DefinitionError {
  const issue = issues[0]!;
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0]!;
    return new DefinitionError(file, key, `unknown key (allowed: ${allowed.join(", ")})`);
  }
  const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "frontmatter";
  return new DefinitionError(file, field, issue.message);
}

export interface DefinitionFile {
  /** Path used in error messages (relative to `confineTo` for a repository's files). */
  file: string;
  /** `name.md` → `name`. */
  basename: string;
  text: string;
}

function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * The `*.md` files of each dir (sorted by name), one array per dir, in the given order. A
 * missing dir is an empty layer. Symlinked files and README.md are skipped.
 */
export async function readDefinitionDirs(dirs: readonly string[], options: LoadOptions = {}): Promise<DefinitionFile[][]> {
  const root = options.confineTo ? path.resolve(options.confineTo) : undefined;
  const realRoot = root ? await realpath(root).catch(() => root) : undefined;
  const layers: DefinitionFile[][] = [];
  for (const given of dirs) {
    const dir = path.resolve(given);
    const untrusted = root !== undefined && isInside(root, dir);
    const display = (name: string) =>
      untrusted ? path.relative(root, path.join(dir, name)).split(path.sep).join("/") : path.join(dir, name);

    // A repository's dir is confined to the repository; a bundled one (the app's own) to itself.
    const base = untrusted ? realRoot! : dir;
    const relDir = untrusted ? path.relative(root, dir) || "." : ".";
    const listed = await listConfined(base, relDir);
    if (!listed.ok && listed.kind === "missing") {
      layers.push([]);
      continue;
    }
    if (!listed.ok) {
      throw new DefinitionError(display(""), "dir", listed.reason === "not a directory" ? "is not a directory" : `points outside the repository (${listed.reason})`);
    }
    const entries = listed.entries;

    const files: DefinitionFile[] = [];
    const names = entries
      .filter((e) => e.isFile() && e.name.endsWith(".md") && e.name.toLowerCase() !== "readme.md")
      .map((e) => e.name)
      .sort();
    for (const name of names) {
      files.push({ file: display(name), basename: name.slice(0, -3), text: await readSmallFile(base, path.join(relDir, name), display(name)) });
    }
    layers.push(files);
  }
  return layers;
}

/** A definition file `rel` below `root`, through the confined reader: no symlink at all, at most MAX_DEFINITION_BYTES. */
export async function readSmallFile(root: string, rel: string, display: string): Promise<string> {
  const read = await readConfined(root, rel, { maxBytes: MAX_DEFINITION_BYTES, noSymlinks: true });
  if (!read.ok) throw new DefinitionError(display, "file", read.reason === "is a symlink" ? read.reason : `not read: ${read.reason}`);
  if (read.truncated) throw new DefinitionError(display, "file", `too large (${read.size} bytes; at most ${MAX_DEFINITION_BYTES})`);
  return read.text;
}
