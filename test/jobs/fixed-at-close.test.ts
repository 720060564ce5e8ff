/**
 * A head no review saw, at a pull request's close: the kept findings whose lines it changed are
 * read from GitHub's compare of each finding's commit with that head; a force-pushed commit, a
 * failed compare or a head a review already saw says nothing more.
 */
import nock from "nock";
import { describe, expect, it } from "vitest";
import type { InstallationOctokit } from "../../src/github/types.js";
import { fixedAtClose } from "../../src/jobs/fixed-at-close.js";
import type { StoredFinding } from "../../src/review/review-store.js";
import { API, TOKEN, useNock } from "../helpers/github.js";
import { TestOctokit } from "../helpers/app-stand-ins.js";

useNock();

const REPO = { owner: "octo", repo: "hello" };
const A = "a".repeat(40);
const B = "b".repeat(40);
const HEAD = "c".repeat(40);
const finding = (fingerprint: string, line: number, commit: string, fixed?: boolean): StoredFinding => ({ fingerprint, severity: "warning", path: "src/x.js", line, title: "t", commit, ...(fixed ? { fixed } : {}) });
/** `src/x.js` with line 3 changed. */
const DIFF = "diff --git a/src/x.js b/src/x.js\nindex 1..2 100644\n--- a/src/x.js\n+++ b/src/x.js\n@@ -3 +3 @@\n-const x = 1;\n+const x = 2;\n";
const octokit = () => new TestOctokit({ auth: TOKEN }) as unknown as InstallationOctokit;

function compare(base: string, status: string, diff = DIFF) {
  const scope = nock(API).get(`/repos/octo/hello/compare/${base}...${HEAD}`).query({ per_page: 1 }).reply(200, { status });
  if (status === "ahead") scope.get(`/repos/octo/hello/compare/${base}...${HEAD}`).matchHeader("accept", /diff/).reply(200, diff);
}

describe("fixedAtClose", () => {
  it("marks the findings whose lines a later push changed, one compare per commit", async () => {
    compare(A, "ahead");
    const lines: string[] = [];
    const fixed = await fixedAtClose(octokit(), REPO, [finding("f3", 3, A), finding("f9", 9, A), finding("done", 3, A, true)], B, HEAD, (l) => lines.push(l));
    expect([...fixed]).toEqual(["f3"]);
    expect(lines).toEqual([]);
  });

  it("asks nothing when a review saw the closing head, or every finding was posted on it", async () => {
    expect(await fixedAtClose(octokit(), REPO, [finding("f3", 3, A)], HEAD, HEAD, () => {})).toEqual(new Set());
    expect(await fixedAtClose(octokit(), REPO, [finding("f3", 3, HEAD)], B, HEAD, () => {})).toEqual(new Set());
  });

  it("a commit no longer in the head's history (force-push) says nothing", async () => {
    compare(A, "diverged");
    expect(await fixedAtClose(octokit(), REPO, [finding("f3", 3, A)], B, HEAD, () => {})).toEqual(new Set());
  });

  it("a compare that fails, or a diff that cannot be read, is one log line and leaves the findings open", async () => {
    nock(API).get(`/repos/octo/hello/compare/${A}...${HEAD}`).query({ per_page: 1 }).reply(404, { message: "Not Found" });
    compare(B, "ahead", "not a diff\n");
    const lines: string[] = [];
    expect(await fixedAtClose(octokit(), REPO, [finding("f3", 3, A), finding("g3", 3, B)], "d".repeat(40), HEAD, (l) => lines.push(l))).toEqual(new Set());
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^could not compare aaaaaaa with the closing head ccccccc: Not found/);
    expect(lines[1]).toMatch(/^could not compare bbbbbbb with the closing head ccccccc: its diff could not be read/);
  });

  it("compares at most ten commits, and says so", async () => {
    const commits = Array.from({ length: 12 }, (_, i) => i.toString(16).repeat(40));
    for (const c of commits.slice(0, 10)) compare(c, "ahead", "");
    const lines: string[] = [];
    await fixedAtClose(octokit(), REPO, commits.map((c, i) => finding(`f${i}`, 3, c)), B, HEAD, (l) => lines.push(l));
    expect(lines).toEqual(["12 commits hold unfixed findings; the first 10 are compared with the closing head, the rest count as open"]);
  });
});
