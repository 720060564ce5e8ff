/**
 * Every environment variable the code reads is in its page's table: src/ in docs/operating.md,
 * bench/ in docs/bench.md. The reads are found in every form the code uses — `process.env.X`,
 * `env.X` / `options.env.X`, `env["X"]`, destructuring, and a computed `env[name]` (whose file's
 * variable-shaped string literals are taken as the names it reads: constants, lists, tables). And
 * every row names a variable the code reads, unless it says Probot reads it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { filesUnder } from "../helpers/source-files.js";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Comments out: a name in a comment is not a read. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\w])\/\/.*$/gm, "$1");

const NAME = "[A-Z][A-Z0-9_]*";
/** `env.X`, `env?.X`, `process.env.X`, `options.env.X` — not `env.X = …` (a child's environment being built). */
const DOT = new RegExp(`\\benv\\??\\.(${NAME})\\b(?!\\s*(?:[-+*/|&?]{0,2}=(?!=)))`, "g");
/** `env["X"]`, `env['X']`, `env[\`X\`]`, `env?.["X"]`. */
const BRACKET = new RegExp(`\\benv(?:\\?\\.)?\\[\\s*(["'\`])(${NAME})\\1\\s*\\](?!\\s*=(?!=))`, "g");
/** `const { X, Y: y } = process.env` (or `= env`, `= options.env`). */
const DESTRUCTURED = /\{([^{}]*)\}\s*=\s*(?:[\w.]+\.)?env\b/g;
/** `env[name]` read with a computed key. */
const COMPUTED = /\benv(?:\?\.)?\[\s*(?!["'`])[^\]]+\](?!\s*=(?!=))/;
/** Quoted literals shaped like a variable's name; signal names are not variables. */
const LITERAL = /(["'])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)\1/g;

/** The variables one source file reads. */
function variablesRead(source: string): Set<string> {
  const text = code(source);
  const names = new Set<string>();
  for (const m of text.matchAll(DOT)) names.add(m[1]!);
  for (const m of text.matchAll(BRACKET)) names.add(m[2]!);
  for (const m of text.matchAll(DESTRUCTURED)) {
    for (const part of m[1]!.split(",")) {
      const key = part.split(":")[0]!.replace(/=.*$/, "").trim();
      if (new RegExp(`^${NAME}$`).test(key)) names.add(key);
    }
  }
  if (COMPUTED.test(text)) {
    for (const m of text.matchAll(LITERAL)) if (!/^SIG[A-Z0-9]+$/.test(m[2]!)) names.add(m[2]!);
  }
  return names;
}

/** `name → "file, file"` for every variable the files under `dirs` read. */
function readsUnder(...dirs: string[]): Map<string, string[]> {
  const reads = new Map<string, string[]>();
  for (const file of dirs.flatMap((d) => filesUnder(path.join(ROOT, d), (name) => /\.(ts|mjs|js)$/.test(name), ["node_modules", "results"]))) {
    for (const name of variablesRead(readFileSync(file, "utf8"))) reads.set(name, [...(reads.get(name) ?? []), path.relative(ROOT, file)]);
  }
  return reads;
}

/** The rows of the table under `## Environment variables`: name → the row's text. */
function documented(doc: string): Map<string, string> {
  const text = readFileSync(path.join(ROOT, doc), "utf8");
  const section = text.split(/^## /m).find((s) => s.startsWith("Environment variables"));
  if (!section) throw new Error(`${doc} has no "## Environment variables" section`);
  const rows = new Map<string, string>();
  for (const line of section.split("\n")) {
    const m = /^\| `([A-Z][A-Z0-9_]*)` \|(.*)$/.exec(line);
    if (m) rows.set(m[1]!, m[2]!);
  }
  return rows;
}

describe("the variable scanner", () => {
  it.each([
    ["process.env.CREWBOT_DATA_DIR", ["CREWBOT_DATA_DIR"]],
    ["const x = options.env.GITHUB_CLIENT_ID || undefined;", ["GITHUB_CLIENT_ID"]],
    ["if (env?.GHE_HOST) return;", ["GHE_HOST"]],
    ['process.env["REDIS_URL"]', ["REDIS_URL"]],
    ["process.env['REDIS_PREFIX']", ["REDIS_PREFIX"]],
    ["const { PORT, HOST: host = 'x' } = process.env;", ["PORT", "HOST"]],
    ['const NAME = "CREWBOT_PRICES";\nconst file = env[NAME]?.trim();', ["CREWBOT_PRICES"]],
    ['for (const name of ["A_DAYS", "B_DAYS"]) if (env[name]) return;\nchild.kill("SIGKILL");', ["A_DAYS", "B_DAYS"]],
    ['env.GIT_CONFIG_GLOBAL = "/dev/null";\nenv[key] = value;', []],
    ["// process.env.IN_A_COMMENT\n/** `env.ALSO_A_COMMENT` */", []],
  ])("%s → %j", (source, names) => {
    expect([...variablesRead(source)].sort()).toEqual([...names].sort());
  });
});

describe.each([
  ["src", "docs/operating.md"],
  ["bench", "docs/bench.md"],
])("every variable %s/ reads", (dir, doc) => {
  const reads = readsUnder(dir);
  const rows = documented(doc);

  it(`is in ${doc}'s table`, () => {
    const missing = [...reads].filter(([name]) => !rows.has(name)).map(([name, where]) => `${name} (${where.join(", ")})`);
    expect(missing, `add a row to ${doc}'s "Environment variables" table for each`).toEqual([]);
  });

  it(`is all ${doc}'s table names, but for what Probot reads`, () => {
    const stale = [...rows].filter(([name, row]) => !reads.has(name) && !/Probot/.test(row)).map(([name]) => name);
    expect(stale, `${doc} names variables ${dir}/ no longer reads`).toEqual([]);
  });
});
