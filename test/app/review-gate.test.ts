/**
 * The `crewbot/review` check run as a gate: `review.failOn` sets its conclusion, and its
 * annotations mark every finding that sits on a line of the head, 50 per request.
 */
import nock from "nock";
import { describe, expect, it } from "vitest";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { API, REPO_PATH, startStack } from "./harness.js";
import { deliver, GREET, lines, mockReviewJob, push, type Traffic } from "./review-harness.js";

useNock();

async function reviewed(reviewText: string, config: string, o: { files?: Record<string, string>; extraPatches?: number } = {}) {
  const stack = await startStack([{ text: reviewText }], { files: { "greet.js": GREET } });
  gitSync(stack.remoteDir, "branch", "feature");
  const sha = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";'), ...o.files }, "feature");
  const t: Traffic = { reviews: [], checks: [], rejected: [] };
  mockReviewJob(stack, t, { checkId: 950, review: true, config });
  for (let i = 0; i < (o.extraPatches ?? 0); i++) {
    nock(API).patch(`${REPO_PATH}/check-runs/950`, (b) => (t.checks.push({ method: "PATCH", body: b }), true)).reply(200, {});
  }
  const job = await deliver(stack, "opened", sha, "pr-gate");
  expect(job.state).toBe("succeeded");
  expect(t.rejected).toEqual([]);
  return t;
}

describe("review.failOn", () => {
  it("critical: a critical finding fails the check run, and the run marks it on its line", async () => {
    const t = await reviewed("## Critical\n- greet.js:10 - `line10` is a string now.\n## Summary\nBroken.", "review:\n  failOn: critical\n");

    const done = t.checks.at(-1)!.body;
    expect(done).toMatchObject({ status: "completed", conclusion: "failure", output: { title: "1 critical · 0 warnings · 0 suggestions" } });
    expect(done.output.summary).toContain(
      "- Failing: 1 open critical finding (review.failOn: critical):\n  - **Critical** `greet.js:10` — `line10` is a string now. ([thread](https://github.com/Codertocat/Hello-World/pull/1#pullrequestreview-701))",
    );
    expect(done.output.annotations).toEqual([
      { path: "greet.js", start_line: 10, end_line: 10, annotation_level: "failure", title: "Critical", message: "`line10` is a string now." },
    ]);
  });

  it("critical: only a warning passes (success, not neutral), the warning still marked", async () => {
    const t = await reviewed("## Warnings\n- greet.js:9-10 - name these better.\n## Summary\nFine.", "review:\n  failOn: critical\n");

    const done = t.checks.at(-1)!.body;
    expect(done).toMatchObject({ status: "completed", conclusion: "success" });
    expect(done.output.summary).toContain("- Passing: no open critical finding (review.failOn: critical).");
    expect(done.output.annotations).toEqual([
      { path: "greet.js", start_line: 9, end_line: 10, annotation_level: "warning", title: "Warning", message: "name these better." },
    ]);
  });

  it("never (the default): findings only inform — neutral", async () => {
    const t = await reviewed("## Critical\n- greet.js:10 - `line10` is a string now.\n## Summary\nBroken.", "");
    expect(t.checks.at(-1)!.body).toMatchObject({ status: "completed", conclusion: "neutral" });
  });
});

describe("annotations", () => {
  it("60 findings: 50 go with the completing update, the other 10 in one more update of the same run", async () => {
    const findings = Array.from({ length: 60 }, (_, i) => `- big.js:${i + 1} - issue ${i + 1}.`);
    const text = ["## Suggestions", ...findings, "## Summary", "Many nits."].join("\n");
    const t = await reviewed(text, "", { files: { "big.js": lines(60, (i) => `export const v${i} = ${i};`) }, extraPatches: 1 });

    expect(t.reviews[0].comments).toHaveLength(25);
    expect(t.checks.map((c) => [c.method, c.body.status ?? null, c.body.output?.annotations?.length ?? 0])).toEqual([
      ["POST", "in_progress", 0],
      ["PATCH", "completed", 50],
      ["PATCH", null, 10],
    ]);
    const all = t.checks.flatMap((c) => c.body.output?.annotations ?? []);
    expect(all.map((a: any) => a.start_line)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(all.every((a: any) => a.path === "big.js" && a.annotation_level === "notice")).toBe(true);
    expect(t.checks[2]!.body.output.title).toBe(t.checks[1]!.body.output.title);
  });
});
