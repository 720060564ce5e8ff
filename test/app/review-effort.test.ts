/**
 * `review.effort` end to end: a quick review is one look — the reviewer is offered no file,
 * command or proof tool, only `submit_review` — and every check run and `/review` comment names
 * the review's cost beside its effort level. With the operator's first-look model, a standard
 * review first asks it which hunks depend on code outside the diff: the reviewer is told those,
 * and when there are none the review is one look.
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

  describe("a first look (CREWBOT_FIRST_LOOK_MODEL)", () => {
    const FIRST_LOOK_MODEL = "claude-haiku-4-5";
    const risky = (hunks: unknown[]) => use("name_risky_hunks", { hunks });
    const run = async (first: FakeReply, id: string) => {
      const stack = await startStack([first, SUBMIT], { files: { "greet.js": GREET }, env: { CREWBOT_FIRST_LOOK_MODEL: FIRST_LOOK_MODEL } });
      gitSync(stack.remoteDir, "branch", "feature");
      const sha = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";') }, "feature");
      const t: Traffic = { reviews: [], checks: [], rejected: [] };
      mockReviewJob(stack, t, { checkId: 971, review: true });
      const job = await deliver(stack, "opened", sha, id);
      return { stack, job, t, look: stack.fake.requests[0]!.body, reviewer: stack.fake.requests[1]!.body };
    };
    const toolNames = (body: Record<string, unknown>) => (body.tools as Array<{ name: string }>).map((tool) => tool.name);

    it("names the hunks the reviewer then spends its tools on; the first look is a forced tool call on the cheaper model, and its cost is the review's", async () => {
      const { stack, job, t, look, reviewer } = await run(risky([{ path: "greet.js", line: 10, why: "callers add line10 to numbers" }, { path: "other.js", line: 1, why: "not in the diff" }]), "pr-first-look");

      expect(job.outcome).toBe("✅ Done · 0 critical · 1 warning · 0 suggestions");
      expect(stack.fake.requests).toHaveLength(2);
      expect(look.model).toBe(FIRST_LOOK_MODEL);
      expect(look.tool_choice).toEqual({ type: "tool", name: "name_risky_hunks" });
      expect(JSON.stringify(look.messages)).toContain('+const line10 = \\"10\\";');
      expect(reviewer.model).not.toBe(FIRST_LOOK_MODEL);
      expect(toolNames(reviewer)).toEqual(expect.arrayContaining(["read", "grep", "submit_review"]));
      const prompt = JSON.stringify(reviewer.messages);
      expect(prompt).toContain("- greet.js:10: callers add line10 to numbers");
      expect(prompt).not.toContain("other.js");
      expect(prompt).toContain("A first look at the diff named the hunks in the context that depend on code outside the diff.");
      const figures = (t.checks.at(-1)!.body.output.summary as string).split("\n\n")[1]!;
      expect(t.checks.at(-1)!.body.output.summary).toContain(`- Cost: ${costIn(figures)} (effort: standard).`);
    });

    it("names none: the standard review is one look at the diff, on the reviewer's own model", async () => {
      const { stack, job, reviewer } = await run(risky([]), "pr-first-look-clear");

      expect(job.outcome).toBe("✅ Done · 0 critical · 1 warning · 0 suggestions");
      expect(stack.fake.requests).toHaveLength(2);
      expect(toolNames(reviewer)).toEqual(["submit_review"]);
      expect(reviewer.model).not.toBe(FIRST_LOOK_MODEL);
      expect(JSON.stringify(reviewer.messages)).toContain("A first look at the diff found no hunk whose correctness depends on code outside it, so this review is one look");
    });

    it("fails (an answer without the tool): logged, and the review goes on with its tools as if there had been none", async () => {
      const { stack, job, reviewer } = await run({ text: "Looks fine to me." }, "pr-first-look-failed");

      expect(job.outcome).toBe("✅ Done · 0 critical · 1 warning · 0 suggestions");
      expect(toolNames(reviewer)).toEqual(expect.arrayContaining(["read", "submit_review"]));
      expect(JSON.stringify(reviewer.messages)).not.toContain("A first look");
      expect(stack.fake.requests).toHaveLength(2);
    });
  });
});
