import { describe, expect, it } from "vitest";
import { CheckRun, FIX_ACTION } from "../../src/review/check-run.js";
import type { GitHubWriter } from "../../src/report/github-writer.js";
import { githubRequestProblems } from "../helpers/github-openapi.js";

const SHA = "0123456789abcdef0123456789abcdef01234567";
const PATCH_URL = "https://api.github.com/repos/o/r/check-runs/77";

function fakeWriter() {
  const calls: Array<{ route: string; params: Record<string, unknown> }> = [];
  const writer = { write: async (route: string, params: Record<string, unknown> = {}) => (calls.push({ route, params }), { status: 201, headers: {}, data: { id: 77 } }) };
  return { calls, writer: writer as unknown as GitHubWriter };
}

const annotation = (i: number) => ({ path: "a.ts", start_line: i, end_line: i, annotation_level: "warning" as const, message: `finding ${i}` });
const patch = (body: Record<string, unknown>) => ({ method: "PATCH", url: PATCH_URL, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("the check run's Fix these findings action", () => {
  it("goes with the completing request only; later annotation batches leave it as it is", async () => {
    const { calls, writer } = fakeWriter();
    const run = new CheckRun(writer, { owner: "o", repo: "r", headSha: SHA, externalId: "job-1" });
    await run.start();
    await run.complete("neutral", { title: "2 warnings", summary: "s" }, Array.from({ length: 60 }, (_, i) => annotation(i + 1)), [FIX_ACTION]);
    expect(calls.map((c) => [c.route.split(" ")[0], (c.params.output as { annotations?: unknown[] }).annotations?.length ?? 0, c.params.actions ?? null])).toEqual([
      ["POST", 0, null],
      ["PATCH", 50, [FIX_ACTION]],
      ["PATCH", 10, null],
    ]);
  });

  it("fits GitHub's limits, which the description of the endpoint enforces", () => {
    expect([FIX_ACTION.label.length <= 20, FIX_ACTION.description.length <= 40, FIX_ACTION.identifier.length <= 20]).toEqual([true, true, true]);
    expect(githubRequestProblems(patch({ actions: [FIX_ACTION] }))).toEqual([]);
    expect(githubRequestProblems(patch({ actions: [{ ...FIX_ACTION, label: "Fix all of these findings now" }] })).join("\n")).toMatch(/label must have at most 20 characters/);
    expect(githubRequestProblems(patch({ actions: [FIX_ACTION, FIX_ACTION, FIX_ACTION, FIX_ACTION] })).join("\n")).toMatch(/at most 3 items/);
  });
});
