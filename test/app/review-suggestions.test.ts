/**
 * Committable suggestions end to end: a finding with a concrete fix reaches GitHub as a
 * ```suggestion block over exactly its lines when they lie in one hunk, and as prose otherwise.
 */
import { describe, expect, it } from "vitest";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { startStack } from "./harness.js";
import { deliver, GREET, lines, mockReviewJob, push, type Traffic } from "./review-harness.js";

useNock();

const CRLF = lines(6, (i) => `    row ${i}`).replace(/\n/g, "\r\n");
const MARKER = /<!-- crewbot:finding:[0-9a-f]{16} -->$/;
const withoutMarker = (body: string) => {
  expect(body).toMatch(MARKER);
  return body.replace(MARKER, "<marker>");
};

const REVIEW = [
  "## Warnings",
  "- greet.js:10-11 - Keep these numbers numbers.",
  "",
  "  ```suggestion",
  "  const line10 = 10;",
  "  const line11 = 11;",
  "  ```",
  "- greet.js:11-25 - One constant would do for all of these.",
  "",
  "  ```suggestion",
  "  const lines = [];",
  "  ```",
  "## Suggestions",
  "- rows.txt:3 - Say which row.",
  "",
  "  ```suggestion",
  "  row 3 (the third)",
  "  ```",
  "## Summary",
  "Three fixes.",
].join("\n");

async function reviewedPullRequest(config?: string) {
  const stack = await startStack([{ text: REVIEW }], { files: { "greet.js": GREET, "rows.txt": CRLF } });
  gitSync(stack.remoteDir, "branch", "feature");
  const changed = GREET.replace("const line10 = 10;", 'const line10 = "10";').replace("const line11 = 11;", 'const line11 = "11";').replace("const line25 = 25;", "const line25 = 0;");
  const sha = await push(stack, { "greet.js": changed, "rows.txt": CRLF.replace("row 3\r\n", "row three\r\n") }, "feature");
  const t: Traffic = { reviews: [], checks: [], rejected: [] };
  mockReviewJob(stack, t, { checkId: 901, review: true, ...(config ? { config } : {}) });
  const job = await deliver(stack, "opened", sha, "pr-suggestions");
  expect(job.state).toBe("succeeded");
  expect(t.rejected).toEqual([]);
  expect(t.reviews).toHaveLength(1);
  return t.reviews[0];
}

describe("committable suggestions", () => {
  it("posts a block over a two-line range in one hunk, prose for a range across hunks, and keeps a CRLF file's line endings", async () => {
    const review = await reviewedPullRequest();

    expect(review.comments.map((c: any) => ({ ...c, body: withoutMarker(c.body) }))).toEqual([
      {
        path: "greet.js",
        start_line: 10,
        start_side: "RIGHT",
        line: 11,
        side: "RIGHT",
        body: "**Warning** — Keep these numbers numbers.\n\n```suggestion\nconst line10 = 10;\nconst line11 = 11;\n```\n\n_unverified: no reproducer._\n\n<marker>",
      },
      {
        path: "greet.js",
        line: 25,
        side: "RIGHT",
        body: "**Warning** _(lines 11–25)_ — One constant would do for all of these.\n\nSuggested fix: replace lines 11–25 with:\n\n```\nconst lines = [];\n```\n\n_unverified: no reproducer._\n\n<marker>",
      },
      {
        path: "rows.txt",
        line: 3,
        side: "RIGHT",
        // The reviewer wrote it flush left and with LF; the file indents by four and ends lines with CRLF.
        body: "**Suggestion** — Say which row.\n\n```suggestion\r\n    row 3 (the third)\r\n```\n\n<marker>",
      },
    ]);
  });

  it("leaves every block out with review.suggestions: false, telling the fixes in prose", async () => {
    const review = await reviewedPullRequest("review:\n  suggestions: false\n");

    const bodies = review.comments.map((c: any) => withoutMarker(c.body));
    expect(bodies.join("\n")).not.toContain("```suggestion");
    expect(bodies[0]).toBe("**Warning** — Keep these numbers numbers.\n\nSuggested fix: replace lines 10–11 with:\n\n```\nconst line10 = 10;\nconst line11 = 11;\n```\n\n_unverified: no reproducer._\n\n<marker>");
    expect(review.comments[0]).toMatchObject({ start_line: 10, line: 11 });
  });
});
