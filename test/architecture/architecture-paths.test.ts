/**
 * Every path docs/ARCHITECTURE.md names exists: each backticked span that looks like a path (it has a
 * `/` or ends in `.ts`/`.md`), and each relative link. A path is found from the repository's root or
 * from `src/`; in a row of the folders table, also from that row's folder (`redis/shared-limits.ts` in
 * the `store/` row, where a bare file name must be in that folder); elsewhere a bare file name anywhere
 * in the repository's source, tests, benches or docs. A
 * name ending in `/` must be a folder; one with `*` must match a file. Routes (`/healthz`), commands
 * (`/crewbot cancel`), templates (`jobs/<name>-job.ts`) and a served repository's own files
 * (`.github/…`) are not paths of this repository.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { globSync } from "tinyglobby";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DOC = "docs/ARCHITECTURE.md";

const looksLikePath = (span: string) => (span.includes("/") || /\.(ts|md)$/.test(span)) && !/[\s<>]/.test(span) && !span.startsWith("/") && !span.startsWith(".github/");

function basenames(dir: string, into = new Set<string>()): Set<string> {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) basenames(file, into);
    else into.add(name);
  }
  return into;
}
const KNOWN = new Set(["src", "test", "bench", "docs", "bin"].flatMap((d) => [...basenames(path.join(ROOT, d))]));

/** Whether `span` names something that exists, seen from `bases` (relative to the root); a bare name also anywhere unless `strict`. */
function exists(span: string, bases: string[], strict = false): boolean {
  const folder = span.endsWith("/");
  for (const base of bases) {
    const target = path.join(ROOT, base, span);
    if (span.includes("*")) {
      if (globSync(path.join(base, span).replace(/\/\*$/, "/**"), { cwd: ROOT }).length > 0) return true;
    } else if (existsSync(target) && statSync(target).isDirectory() === folder) return true;
  }
  return !strict && !span.includes("/") && KNOWN.has(span);
}

interface Named {
  span: string;
  line: number;
  bases: string[];
  /** In a folder's row: a bare name must be in that folder. */
  strict?: boolean;
}

/** Every path-like span and relative link of the doc, with where to look for it. */
function named(text: string): Named[] {
  const out: Named[] = [];
  for (const [i, line] of text.split("\n").entries()) {
    const row = /^\| `([a-z-]+\/)`/.exec(line);
    const folder = row ? [path.join("src", row[1]!)] : [];
    for (const m of line.matchAll(/`([^`\n]+)`/g)) {
      const span = m[1]!;
      if (!looksLikePath(span)) continue;
      const bare = !span.includes("/");
      out.push(bare && row ? { span, line: i + 1, bases: folder, strict: true } : { span, line: i + 1, bases: ["", "src", ...folder] });
    }
    for (const m of line.matchAll(/\]\((?!https?:|#)([^)#\s]+)[^)]*\)/g)) out.push({ span: m[1]!, line: i + 1, bases: ["docs"] });
  }
  return out;
}

describe(`every path ${DOC} names`, () => {
  const text = readFileSync(path.join(ROOT, DOC), "utf8");
  const all = named(text);

  it("is found in the doc at all (the scan reads it)", () => {
    expect(all.length).toBeGreaterThan(100);
    expect(all.map((n) => n.span)).toEqual(expect.arrayContaining(["src/main.ts", "jobs/prepare.ts", "../test/README.md"]));
  });

  it("exists", () => {
    const missing = all.filter((n) => !exists(n.span, n.bases, n.strict)).map((n) => `line ${n.line}: ${n.span}`);
    expect(missing, `${DOC} names paths that do not exist: fix the doc (or the name)`).toEqual([]);
  });
});

describe("the path resolver", () => {
  it.each([
    ["src/main.ts", [""], true],
    ["jobs/run-job.ts", ["", "src"], true],
    ["redis/shared-limits.ts", ["", "src", "src/store/"], true],
    ["store/sqlite/*", ["", "src"], true],
    ["tools/", ["", "src"], true],
    ["tools", ["", "src"], false],
    ["parse-command.ts", ["", "src"], true],
    ["jobs/no-such-job.ts", ["", "src"], false],
    ["no-such-file.ts", ["", "src"], false],
  ])("%s from %j → %s", (span, bases, found) => {
    expect(exists(span, bases)).toBe(found);
  });

  it("holds a bare name in a folder's row to that folder", () => {
    expect(named("| `jobs/` | `run-job.ts` dispatches |")).toContainEqual({ span: "run-job.ts", line: 1, bases: ["src/jobs/"], strict: true });
    expect(exists("run-job.ts", ["src/jobs/"], true)).toBe(true);
    expect(exists("parse-command.ts", ["src/jobs/"], true)).toBe(false);
  });

  it.each([["`/healthz`"], ["`/crewbot cancel`"], ["`jobs/<name>-job.ts`"], ["`.github/crewbot.yml`"], ["`review.failOn`"]])("%s is not a path", (text) => {
    expect(named(text)).toEqual([]);
  });
});
