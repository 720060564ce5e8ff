/**
 * `/implement <feedback>` on a same-repository pull request: the worker's context holds the failing
 * checks of the PR's head — every app's but crewbot's own review check — with their outputs,
 * annotations and Actions log tails, as third-party data; no rounds limit applies.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { checkRun, mockAnnotations, mockHeadCheckRuns, mockJobLogRedirect } from "../helpers/check-runs.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { API, mockBotUser, mockInstallationToken, mockJobComments, mockPermission, REPO_PATH, startStack } from "./harness.js";

useNock();

let logs: { url: string; server: Server };
beforeAll(async () => {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("2026-12-01T10:00:00.0000000Z ##[group]Run npm test\n2026-12-01T10:00:01.0000000Z \u001b[31mError: greet() returned 'hello'\u001b[0m\n");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  logs = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
});
afterAll(() => new Promise<void>((r) => logs.server.close(() => r())));

/** `/implement make the tests pass` on PR #1 (branch feature-x of this repository), GitHub's side mocked up to the head's checks. */
async function feedbackOnPullRequest(progressId: number, env: Record<string, string> = {}) {
  const stack = await startStack(
    [
      { content: [{ type: "tool_use", name: "edit", input: { path: "greet.txt", oldText: "hello", newText: "hi" } }] },
      { text: "## Completed\nFixed.\n## Files Changed\n- greet.txt\n## Notes\nNone." },
    ],
    { files: { "greet.txt": "hello\n" }, env },
  );
  gitSync(stack.remoteDir, "branch", "feature-x");
  gitSync(stack.remoteDir, "update-ref", "refs/pull/1/head", "feature-x");
  const head = gitSync(stack.remoteDir, "rev-parse", "feature-x").trim();
  const payload = issueCommentCreated("/implement make the tests pass", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
  payload.issue.pull_request = { url: `${API}${REPO_PATH}/pulls/1` };
  mockInstallationToken();
  mockBotUser();
  mockPermission("Codertocat", "write");
  mockJobComments({ progressId, edits: [], trigger: { id: payload.comment.id }, pull: {} })
    .get(`${REPO_PATH}/pulls/1`)
    .reply(200, { head: { ref: "feature-x", sha: head, repo: { full_name: "Codertocat/Hello-World" } }, base: { repo: { full_name: "Codertocat/Hello-World" } } });
  return { stack, head, payload };
}

describe("/implement on a pull request whose head fails its checks", () => {
  it("gives the worker the failing checks of the head, without crewbot's own review check", async () => {
    const { stack, head, payload } = await feedbackOnPullRequest(95);
    mockHeadCheckRuns(
      [
        checkRun({ id: 901, name: "unit tests", headSha: head, output: { title: "2 failed", summary: "see the log", annotations_count: 1 } }),
        checkRun({ id: 902, name: "crewbot/review", headSha: head, app: { id: 1, slug: "crewbot" }, output: { title: "3 findings" } }),
        checkRun({ id: 903, name: "docs", headSha: head, conclusion: "success" }),
      ],
      head,
    );
    mockAnnotations(901, [{ path: "greet.txt", start_line: 1, end_line: 1, annotation_level: "failure", message: "greeting must be hi", title: null, raw_details: null, blob_href: "", start_column: null, end_column: null }]);
    mockJobLogRedirect(901, `${logs.url}/901`);

    const job = await stack.runToEnd("issue_comment", payload, "feedback-checks");

    expect(job.outcome).toMatch(/^✅ Done/);
    const prompt = JSON.stringify(stack.fake.requests[0]!.body.messages);
    expect(prompt).toContain(`the failing checks of commit ${head.slice(0, 12)}`);
    expect(prompt).toContain("Check: unit tests");
    expect(prompt).toContain("- greet.txt:1 [failure] greeting must be hi");
    expect(prompt).toContain("Error: greet() returned 'hello'");
    expect(prompt).toContain('check run 901, written by the app github-actions\\" trust=\\"third-party\\"');
    expect(prompt).not.toContain("3 findings");
    expect(prompt).not.toContain("Check: docs");
  });

  it("tells crewbot's own checks by the app's id: another app named like crewbot (or like CREWBOT_BOT_NAME) counts as failing", async () => {
    const { stack, head, payload } = await feedbackOnPullRequest(96, { CREWBOT_BOT_NAME: "lint-bot" });
    mockHeadCheckRuns(
      [
        // APP_ID is 1 in the stack: this one is crewbot's own.
        checkRun({ id: 911, name: "crewbot/review", headSha: head, app: { id: 1, slug: "crewbot" }, output: { title: "own findings" } }),
        checkRun({ id: 912, name: "crewbot/review", headSha: head, app: { id: 4242, slug: "crewbot" }, output: { title: "look-alike says no" } }),
        checkRun({ id: 913, name: "lint", headSha: head, app: { id: 5151, slug: "lint-bot" }, output: { title: "named like our commits" } }),
      ],
      head,
    );

    const job = await stack.runToEnd("issue_comment", payload, "feedback-own-checks");

    expect(job.outcome).toMatch(/^✅ Done/);
    const prompt = JSON.stringify(stack.fake.requests[0]!.body.messages);
    expect(prompt).toContain("look-alike says no");
    expect(prompt).toContain("named like our commits");
    expect(prompt).toContain("check run 912 (crewbot): failure");
    expect(prompt).toContain("check run 913 (lint-bot): failure");
    expect(prompt).not.toContain("own findings");
    expect(prompt).not.toContain("check run 911");
  });
});
