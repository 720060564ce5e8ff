/**
 * A pull_request event that the repository's config turns off (`review.auto: false`) queues
 * nothing: the trigger reads the config before it enqueues, so a command sent right after a push
 * runs at once, never "⏳ Queued behind" an automatic review that would only have been skipped.
 */
import nock from "nock";
import { describe, expect, it } from "vitest";
import { issueCommentCreated, pullRequestEvent } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import type { SummarySubmission } from "../../src/tools/submit-summary.js";
import { API, mockInstallationToken, mockJobComments, mockPermission, mockRepoConfig, REPO_PATH, startStack } from "./harness.js";
import { GREET, push } from "./review-harness.js";

useNock();

const OFF = "review:\n  auto: false\n";
const SUMMARY: SummarySubmission = {
  what: "Makes line10 a string.",
  walkthrough: [{ files: "greet.js", change: "line10 becomes a string" }],
  effort: 1,
  effortReason: "one line",
  risks: [],
};

describe("review.auto: false", () => {
  it("a push queues nothing, and a /describe right after runs at once, with no queued comment", async () => {
    const stack = await startStack([{ content: [{ type: "tool_use", name: "submit_summary", input: SUMMARY }] }], { files: { "greet.js": GREET } });
    gitSync(stack.remoteDir, "branch", "feature");
    const head = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";') }, "Make line10 a string");

    // The push: the trigger reads the config, and that is all it asks of GitHub.
    mockInstallationToken();
    mockRepoConfig({ repo: OFF });
    await stack.probot.receive({ id: "push-off", name: "pull_request", payload: pullRequestEvent("synchronize", { headSha: head, cloneUrl: stack.cloneUrl }) } as never);
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);

    // /describe right after: one comment (its progress), no "⏳ Queued behind" first; nock refuses a second post.
    const payload = issueCommentCreated("/describe", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    payload.issue.pull_request = { url: `${API}${REPO_PATH}/pulls/1` };
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    const patches: string[] = [];
    mockJobComments({ progressId: 320, edits, trigger: { id: payload.comment.id }, config: { repo: OFF }, pull: {} });
    nock(API)
      .get(`${REPO_PATH}/pulls/1`)
      .times(3)
      .optionally()
      .reply(200, { number: 1, body: "Please look.", head: { sha: head, repo: { full_name: "Codertocat/Hello-World" } }, base: { ref: "main" } })
      .patch(`${REPO_PATH}/pulls/1`, (b: { body: string }) => (patches.push(b.body), true))
      .reply(200, {})
      .get(`${REPO_PATH}/pulls/1/commits`)
      .query(true)
      .reply(200, [{ sha: head, commit: { message: "Make line10 a string" } }]);

    const job = await stack.runToEnd("issue_comment", payload, "describe-after-push");

    expect(job).toMatchObject({ kind: "describe", state: "succeeded" });
    expect(await stack.crewbot.queue.listRecent()).toHaveLength(1);
    // At once: not after a review's 60 s debounce.
    expect(job.startedAt! - job.createdAt).toBeLessThan(10_000);
    expect(edits.join("\n")).not.toContain("Queued behind");
    expect(edits.at(-1)).toContain("The summary is in the pull request's description.");
    expect(patches).toHaveLength(1);
  });

  it("a push after the config turned automatic reviews off queues nothing; on again, the next push is reviewed", async () => {
    const stack = await startStack([], { runner: false });
    const event = (sha: string) => pullRequestEvent("synchronize", { headSha: sha, cloneUrl: stack.cloneUrl });
    mockInstallationToken();
    mockRepoConfig({ repo: OFF });
    await stack.probot.receive({ id: "push-1", name: "pull_request", payload: event("1".repeat(40)) } as never);
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);

    // Each pull_request event reads the config afresh: turning reviews on counts from the next push.
    mockRepoConfig({ repo: "review:\n  auto: true\n" });
    await stack.probot.receive({ id: "push-2", name: "pull_request", payload: event("2".repeat(40)) } as never);
    const queued = await stack.crewbot.queue.listRecent();
    expect(queued.map((j) => [j.kind, j.state, j.review?.headSha])).toEqual([["review", "queued", "2".repeat(40)]]);
  });
});
