import { describe, expect, it } from "vitest";
import { issueCommentCreated, reviewCommentCreated } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { API, mockBotUser, mockInstallationToken, mockJobComments, mockPermission, REPO_PATH, startStack } from "./harness.js";

useNock();

const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });

function prPayload(cloneUrl: string) {
  const payload = issueCommentCreated("/implement rename the greeting", { cloneUrl, defaultBranch: "main" });
  payload.issue.pull_request = { url: `${API}${REPO_PATH}/pulls/1` };
  return payload;
}

const samePr = (ref: string, head = "Codertocat/Hello-World") => ({
  head: { ref, repo: { full_name: head } },
  base: { repo: { full_name: "Codertocat/Hello-World" } },
});

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
    mockBotUser();
    mockPermission("Codertocat", "write"); // asked once: the job reuses the trigger's answer
    const edits: string[] = [];
    mockJobComments({ progressId: 90, edits, trigger: { id: payload.comment.id } }).get(`${REPO_PATH}/pulls/1`).reply(200, samePr("feature-x"));

    const job = await stack.runToEnd("issue_comment", payload, "feedback-1");

    expect(job.outcome).toMatch(/^✅ Done/);
    expect(gitSync(stack.remoteDir, "show", "feature-x:greet.txt")).toBe("hi\n");
    expect(gitSync(stack.remoteDir, "log", "-1", "--format=%an|%s", "feature-x")).toBe("crewbot[bot]|Address feedback: rename the greeting\n");
    expect(gitSync(stack.remoteDir, "show", "main:greet.txt")).toBe("hello\n");
    expect(edits.at(-1)).toMatch(/^✅ Done/);
  });

  it("runs the configured implement-and-review chain from the worker on, with setup and checks, and commits each round", async () => {
    const stack = await startStack([
      { content: [use("edit", { path: "greet.txt", oldText: "hello", newText: "hi" })] },
      { text: "## Completed\nRenamed.\n## Files Changed\n- greet.txt\n## Notes\nNone." },
      { text: "## Suggestions\n- greet.txt:1 - say it louder\n\n## Summary\nFine." },
      { content: [use("write", { path: "greet.txt", content: "HI\n" })] },
      { text: "## Completed\nLouder.\n## Files Changed\n- greet.txt\n## Notes\nNone." },
    ], { files: { "greet.txt": "hello\n" } });
    gitSync(stack.remoteDir, "branch", "feature-y");
    gitSync(stack.remoteDir, "update-ref", "refs/pull/1/head", "feature-y");
    const payload = prPayload(stack.cloneUrl);
    mockInstallationToken();
    mockBotUser();
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    const config = 'implement:\n  chain: implement-and-review\n  setup: ["echo ready"]\n  check: ["grep -q HI greet.txt"]\n';
    mockJobComments({ progressId: 92, edits, trigger: { id: payload.comment.id }, config: { repo: config } })
      .get(`${REPO_PATH}/pulls/1`)
      .reply(200, samePr("feature-y"));

    const job = await stack.runToEnd("issue_comment", payload, "feedback-review");

    expect(job.outcome).toMatch(/^✅ Done/);
    // Worker, reviewer, worker: no scout, no planner.
    expect(stack.fake.requests).toHaveLength(5);
    expect(JSON.stringify(stack.fake.requests[2]!.body.messages)).toContain("+hi");
    expect(gitSync(stack.remoteDir, "log", "--format=%s", "feature-y", "^main").trim().split("\n")).toEqual([
      "Address the review's findings",
      "Address feedback: rename the greeting",
    ]);
    expect(edits.at(-1)).toMatch(/## Setup\n✅ `echo ready` · exit code 0[\s\S]*## Checks\n✅ `grep -q HI greet.txt` · exit code 0/);
  });

  it("refuses a pull request from a fork, with the reason, before cloning anything", async () => {
    const stack = await startStack([]);
    const payload = prPayload(stack.cloneUrl);
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    mockJobComments({ progressId: 91, edits, trigger: { id: payload.comment.id }, conversation: false })
      .get(`${REPO_PATH}/pulls/1`)
      .reply(200, samePr("main", "mallory/Hello-World"));

    const job = await stack.runToEnd("issue_comment", payload, "feedback-fork");

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
    mockBotUser();
    mockPermission("Codertocat", "write"); // asked once: the job reuses the trigger's answer
    let reply = "";
    mockJobComments({ progressId: 92, edits: [], number: 2, trigger: { id: payload.comment.id, review: true } })
      .get(`${REPO_PATH}/pulls/2`)
      .reply(200, samePr("changes"))
      .post(`${REPO_PATH}/pulls/2/comments/${payload.comment.id}/replies`, (b) => ((reply = b.body), true))
      .reply(201, {});

    const job = await stack.runToEnd("pull_request_review_comment", payload, "review-feedback");

    expect(job.outcome).toMatch(/^✅ Done/);
    expect(reply).toMatch(/^Done in [0-9a-f]{7}\. ✅ Done · /);
    expect(gitSync(stack.remoteDir, "show", "changes:fix.txt")).toBe("fixed\n");
  });
});
