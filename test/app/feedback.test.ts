import nock from "nock";
import { describe, expect, it } from "vitest";
import { issueCommentCreated, reviewCommentCreated } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { API, mockInstallationToken, mockPermission, REPO_PATH, startStack } from "./harness.js";

useNock();

const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });

function prPayload(cloneUrl: string) {
  const payload = issueCommentCreated("/implement rename the greeting", { cloneUrl, defaultBranch: "main" });
  payload.issue.pull_request = { url: `${API}${REPO_PATH}/pulls/1` };
  return payload;
}

function mockJobStart(commentId: number, progressId: number) {
  return nock(API)
    .post(`${REPO_PATH}/issues/comments/${commentId}/reactions`)
    .reply(201, {})
    .post(`${REPO_PATH}/issues/1/comments`)
    .reply(201, { id: progressId });
}

describe("/implement <feedback> on a pull request", () => {
  it("changes the PR's own branch and pushes there, never elsewhere", async () => {
    const stack = await startStack([
      { content: [use("edit", { path: "greet.txt", oldText: "hello", newText: "hi" })] },
      { text: "## Completed\nRenamed.\n## Files Changed\n- greet.txt\n## Notes\nNone." },
    ], { files: { "greet.txt": "hello\n" } });
    // The PR's branch on the remote, and GitHub's ref for its head.
    gitSync(stack.remoteDir, "branch", "feature-x");
    gitSync(stack.remoteDir, "update-ref", "refs/pull/1/head", "feature-x");
    const payload = prPayload(stack.cloneUrl);
    mockInstallationToken();
    mockPermission("Codertocat", "write", 2);
    const edits: string[] = [];
    mockJobStart(payload.comment.id, 90)
      .get(`${REPO_PATH}/pulls/1`)
      .reply(200, { head: { ref: "feature-x", repo: { full_name: "Codertocat/Hello-World" } }, base: { repo: { full_name: "Codertocat/Hello-World" } } })
      .get(`${REPO_PATH}/issues/1/comments`)
      .query(true)
      .reply(200, [])
      .patch(`${REPO_PATH}/issues/comments/90`, (b) => (edits.push(b.body), true))
      .times(4)
      .optionally()
      .reply(200, {});

    await stack.probot.receive({ id: "feedback-1", name: "issue_comment", payload } as never);
    const [queued] = await stack.crewbot.queue.listRecent();
    const job = await stack.waitFor(queued!.id);
    await stack.crewbot.background.idle();

    expect(job.outcome).toMatch(/^✅ Done/);
    expect(gitSync(stack.remoteDir, "show", "feature-x:greet.txt")).toBe("hi\n");
    expect(gitSync(stack.remoteDir, "log", "-1", "--format=%an|%s", "feature-x")).toBe("crewbot[bot]|Address feedback: rename the greeting\n");
    expect(gitSync(stack.remoteDir, "show", "main:greet.txt")).toBe("hello\n");
    expect(edits.at(-1)).toMatch(/^✅ Done/);
  });

  it("refuses a pull request from a fork, with the reason, before cloning anything", async () => {
    const stack = await startStack([]);
    const payload = prPayload(stack.cloneUrl);
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    mockJobStart(payload.comment.id, 91)
      .get(`${REPO_PATH}/pulls/1`)
      .reply(200, { head: { ref: "main", repo: { full_name: "mallory/Hello-World" } }, base: { repo: { full_name: "Codertocat/Hello-World" } } })
      .patch(`${REPO_PATH}/issues/comments/91`, (b) => (edits.push(b.body), true))
      .reply(200, {});

    await stack.probot.receive({ id: "feedback-fork", name: "issue_comment", payload } as never);
    const [queued] = await stack.crewbot.queue.listRecent();
    const job = await stack.waitFor(queued!.id);
    await stack.crewbot.background.idle();

    expect(job.outcome).toMatch(/^❌ Failed: this pull request comes from a fork/);
    expect(edits.at(-1)).toMatch(/^❌ Failed: this pull request comes from a fork; crewbot can only push to branches of this repository/);
    expect(stack.git.requests).toEqual([]);
    expect(stack.fake.requests).toEqual([]);
  });

  it("answers a review comment in its own thread", async () => {
    const stack = await startStack([
      { content: [use("write", { path: "fix.txt", content: "fixed\n" })] },
      { text: "## Completed\nFixed.\n## Files Changed\n- fix.txt\n## Notes\nNone." },
    ]);
    gitSync(stack.remoteDir, "branch", "changes");
    gitSync(stack.remoteDir, "update-ref", "refs/pull/2/head", "changes");
    const payload = reviewCommentCreated("/implement fix this line", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockPermission("Codertocat", "write", 2);
    let reply = "";
    nock(API)
      .post(`${REPO_PATH}/pulls/comments/${payload.comment.id}/reactions`, { content: "eyes" })
      .reply(201, {})
      .post(`${REPO_PATH}/issues/2/comments`)
      .reply(201, { id: 92 })
      .get(`${REPO_PATH}/pulls/2`)
      .reply(200, { head: { ref: "changes", repo: { full_name: "Codertocat/Hello-World" } }, base: { repo: { full_name: "Codertocat/Hello-World" } } })
      .get(`${REPO_PATH}/issues/2/comments`)
      .query(true)
      .reply(200, [])
      .post(`${REPO_PATH}/pulls/2/comments/${payload.comment.id}/replies`, (b) => ((reply = b.body), true))
      .reply(201, {})
      .patch(`${REPO_PATH}/issues/comments/92`)
      .times(4)
      .optionally()
      .reply(200, {});

    await stack.probot.receive({ id: "review-feedback", name: "pull_request_review_comment", payload } as never);
    const [queued] = await stack.crewbot.queue.listRecent();
    const job = await stack.waitFor(queued!.id);
    await stack.crewbot.background.idle();

    expect(job.outcome).toMatch(/^✅ Done/);
    expect(reply).toMatch(/^Done in [0-9a-f]{7}\. ✅ Done · /);
    expect(gitSync(stack.remoteDir, "show", "changes:fix.txt")).toBe("fixed\n");
  });
});
