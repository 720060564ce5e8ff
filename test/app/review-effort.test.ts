/**
 * `review.effort` end to end: a quick review is one look — the reviewer is offered no file,
 * command or proof tool, only `submit_review` — and every check run and `/review` comment names
 * the review's cost beside its effort level.
 */
import { describe, expect, it } from "vitest";
import { issueCommentCreated } from "../fixtures/payloads.js";
import type { FakeReply } from "../helpers/fake-anthropic.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { API, mockInstallationToken, mockJobComments, mockPermission, REPO_PATH, startStack } from "./harness.js";
import { deliver, GREET, mockReviewJob, push, type Traffic } from "./review-harness.js";

useNock();

const use = (name: string, input: unknown): FakeReply => ({ content: [{ type: "tool_use", name, input }] });
const SUBMIT = use("submit_review", {
  summary: "line10 became a string.",
  findings: [{ path: "greet.js", line: 10, severity: "warning", body: "`line10` is a string now; callers add it to numbers." }],
});

/** The cost in a figures line (`0s · 1.2k tokens · $0.0034`): the fake model's cost varies with the prompt's length. */
const costIn = (figures: string) => / · (~?\$[\d.]+)/.exec(figures)![1];

describe("review.effort", () => {
  it("quick: one look with submit_review alone, no proofs, and the check run names the cost beside `effort: quick`", async () => {
    const stack = await startStack([SUBMIT], { files: { "greet.js": GREET } });
    gitSync(stack.remoteDir, "branch", "feature");
    const sha = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";') }, "feature");
    const t: Traffic = { reviews: [], checks: [], rejected: [] };
    mockReviewJob(stack, t, { checkId: 970, review: true, config: "review:\n  effort: quick\n" });

    const job = await deliver(stack, "opened", sha, "pr-quick");

    expect(job.outcome).toBe("✅ Done · 0 critical · 1 warning · 0 suggestions");
    expect(stack.fake.requests).toHaveLength(1);
    const request = stack.fake.requests[0]!.body;
    expect((request.tools as Array<{ name: string }>).map((tool) => tool.name)).toEqual(["submit_review"]);
    expect(JSON.stringify(request.messages)).toContain("This is a quick review: one look.");
    const [bullets, figures] = (t.checks.at(-1)!.body.output.summary as string).split("\n\n");
    expect(bullets).toBe(
      [
        "- Reviewed 1 of 1 changed file.",
        "- Findings: 0 critical · 1 warning · 0 suggestions; 1 inline comment. Review: https://github.com/Codertocat/Hello-World/pull/1#pullrequestreview-701",
        "- Proof: none run (review.effort: quick).",
        `- Cost: ${costIn(figures!)} (effort: quick).`,
      ].join("\n"),
    );
  });

  it("standard (the default): the `/review` comment ends with the review's cost beside `effort: standard`", async () => {
    const stack = await startStack([SUBMIT], { files: { "greet.js": GREET } });
    gitSync(stack.remoteDir, "branch", "feature");
    const sha = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";') }, "change");
    const payload = issueCommentCreated("/review", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    payload.issue.pull_request = { url: `${API}${REPO_PATH}/pulls/1` };
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    mockJobComments({ progressId: 96, edits, trigger: { id: payload.comment.id }, config: { repo: "review:\n  auto: false\n" }, pull: {} })
      .get(`${REPO_PATH}/pulls/1`)
      .reply(200, { head: { sha, repo: { full_name: "Codertocat/Hello-World" } }, base: { ref: "main" } })
      .post(`${REPO_PATH}/pulls/1/reviews`)
      .reply(200, { id: 801, html_url: "https://github.com/Codertocat/Hello-World/pull/1#pullrequestreview-801" });

    const job = await stack.runToEnd("issue_comment", payload, "review-standard");

    expect(job.outcome).toMatch(/^✅ Done · /);
    expect((stack.fake.requests[0]!.body.tools as Array<{ name: string }>).map((tool) => tool.name)).toEqual(expect.arrayContaining(["read", "grep", "submit_review"]));
    const final = edits.at(-1)!;
    const status = final.split("\n").find((line) => line.includes("✅ Done"))!;
    expect(final).toContain(`- Findings: 0 critical · 1 warning · 0 suggestions; 1 inline comment. Review: https://github.com/Codertocat/Hello-World/pull/1#pullrequestreview-801\n`);
    expect(final).toContain(`- Cost: ${costIn(status)} (effort: standard).`);
  });
});
