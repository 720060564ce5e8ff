/**
 * The rules of docs/ARCHITECTURE.md that a reader of the imports can check: which folder may use
 * which, where the databases are touched, and that every GitHub write goes through the writer.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tsFilesUnder } from "../helpers/source-files.js";

const SRC = path.resolve(import.meta.dirname, "../../src");

interface Source {
  /** Repository-relative, e.g. `src/jobs/plan-job.ts`. */
  file: string;
  text: string;
  /** Every module it imports: `src/…` paths for ours, package names for the rest. */
  imports: string[];
}

const SOURCES: Source[] = tsFilesUnder(SRC).map((absolute) => {
  const text = readFileSync(absolute, "utf8");
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^"';]*?from\s*"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1] ?? m[2]!);
  const imports = specifiers.map((s) =>
    s.startsWith(".") ? path.relative(path.dirname(SRC), path.resolve(path.dirname(absolute), s)).replace(/\.js$/, ".ts") : s,
  );
  return { file: path.relative(path.dirname(SRC), absolute), text, imports };
});

const folderOf = (file: string) => file.split("/")[1]!;
const inFolder = (folders: string[]) => (file: string) => file.startsWith("src/") && folders.includes(folderOf(file));

/** `file → import` pairs that break a rule, for a readable failure. */
function breaking(from: (s: Source) => boolean, forbidden: (imported: string) => boolean): string[] {
  return SOURCES.filter(from).flatMap((s) => s.imports.filter(forbidden).map((i) => `${s.file} → ${i}`));
}

describe("what may import what", () => {
  it("finds the source files (the rules below are not vacuous)", () => {
    expect(SOURCES.length).toBeGreaterThan(150);
    expect(SOURCES.some((s) => s.file === "src/secrets/redact.ts")).toBe(true);
  });

  it("secrets/ is below everything: it imports nothing of crewbot's", () => {
    expect(breaking((s) => folderOf(s.file) === "secrets", (i) => i.startsWith("src/") && folderOf(i) !== "secrets")).toEqual([]);
  });

  it("text/ (plain-text helpers) is below everything too: it imports nothing of crewbot's", () => {
    expect(SOURCES.some((s) => s.file === "src/text/cap-middle.ts")).toBe(true);
    expect(breaking((s) => folderOf(s.file) === "text", (i) => i.startsWith("src/") && folderOf(i) !== "text")).toEqual([]);
  });

  it("only store/ opens SQLite or Redis", () => {
    const drivers = new Set(["better-sqlite3", "ioredis", "bullmq"]);
    expect(breaking((s) => folderOf(s.file) !== "store", (i) => drivers.has(i))).toEqual([]);
  });

  it("only the composition root chooses a store; everything else uses the interfaces", () => {
    const root = new Set(["src/app/compose.ts", "src/main.ts", "src/worker.ts"]);
    expect(breaking((s) => folderOf(s.file) !== "store" && !root.has(s.file), inFolder(["store"]))).toEqual([]);
  });

  it("the agent runtime (chain, agent loop, tools) knows nothing of jobs, queues, GitHub writes or pages", () => {
    const above = inFolder(["app", "jobs", "triggers", "queue", "store", "report", "web", "installations", "transcripts", "cli", "workspace"]);
    expect(breaking((s) => inFolder(["agent", "tools", "chain"])(s.file), above)).toEqual([]);
  });

  it("the model loop does not reach into the tools' neighbours or the reporter", () => {
    expect(breaking((s) => folderOf(s.file) === "agent", (i) => i.startsWith("src/") && !["agent", "tools", "secrets"].includes(folderOf(i)))).toEqual([]);
  });

  it("github/ (Octokit, tokens, permissions) depends only on secrets/", () => {
    expect(breaking((s) => folderOf(s.file) === "github", (i) => i.startsWith("src/") && !["github", "secrets"].includes(folderOf(i)))).toEqual([]);
  });

  it("jobs never reach back into the webhook side", () => {
    expect(breaking((s) => inFolder(["jobs", "plan", "review", "report", "workspace", "context"])(s.file), inFolder(["triggers", "app", "web"]))).toEqual([]);
  });
});

describe("every GitHub write goes through the one writer", () => {
  const WRITER = "src/report/github-writer.ts";

  it("no Octokit request with a write verb outside the writer", () => {
    const direct = SOURCES.filter((s) => s.file !== WRITER).flatMap((s) =>
      [...s.text.matchAll(/\.request(?:<[^>]*>)?\(\s*["'`](POST|PATCH|PUT|DELETE) ([^"'`]+)/g)].map((m) => `${s.file}: ${m[1]} ${m[2]}`),
    );
    expect(direct).toEqual([]);
  });

  it("no write through Octokit's REST methods or a GraphQL mutation outside the writer", () => {
    const rest = /\.rest\.[a-zA-Z]+\.(create|update|delete|add|remove|set|merge|submit|dismiss|request)[A-Za-z]*\(/;
    const mutation = /\.graphql(?:<[^>]*>)?\([^)]*\bmutation\b/s;
    const offenders = SOURCES.filter((s) => s.file !== WRITER && (rest.test(s.text) || mutation.test(s.text))).map((s) => s.file);
    expect(offenders).toEqual([]);
  });

  it("the rule sees the writes that do exist (each a writer.write call)", () => {
    const routed = SOURCES.flatMap((s) => [...s.text.matchAll(/\.write(?:<[^>]*>)?\(\s*"(POST|PATCH|PUT|DELETE) /g)].map(() => s.file));
    expect(routed.length).toBeGreaterThan(10);
  });
});
