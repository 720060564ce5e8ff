/**
 * The rule of docs/ARCHITECTURE.md that a reader of the source can check beside the layers (which
 * folder may import which: layers.test.ts): every GitHub write goes through the writer.
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
}

const SOURCES: Source[] = tsFilesUnder(SRC).map((absolute) => ({ file: path.relative(path.dirname(SRC), absolute), text: readFileSync(absolute, "utf8") }));

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
