/**
 * Adversarial suite, GitHub side: pull requests. `/implement` on a fork's PR pushes
 * nowhere (the head is read from GitHub, not trusted from the payload); a review comment on a
 * renamed file's old path changes only the PR's own branch; a repository taken out of the
 * installation gets no automatic review.
 */
import examples from "@octokit/webhooks-examples";
import { describe, expect, it } from "vitest";
import { INSTALLATION_ID, issueCommentCreated, pullRequestEvent, REPO_NAME, REPO_OWNER, reviewCommentCreated } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { mockHeadCheckRuns } from "../helpers/check-runs.js";
import { API, mockBotUser, mockInstallationToken, mockJobComments, mockPermission, REPO_PATH, startStack } from "../app/harness.js";

useNock();

const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });
const pr = (ref: string, head: string | null = `${REPO_OWNER}/${REPO_NAME}`) => ({
  head: { ref, sha: "c0ffee".padEnd(40, "0"), repo: head === null ? null : { full_name: head } },
  base: { repo: { full_name: `${REPO_OWNER}/${REPO_NAME}` } },
});

describe("pull requests from forks", () => {
  it.each([
    ["a fork whose branch is named like the base (main)", pr("main", "mallory/Hello-World")],
    ["a fork that was deleted (head repo null)", pr("main", null)],
    ["a fork with an ordinary feature branch", pr("feature", "Mallory/Hello-World")],
  ])("/implement on %s: refused before cloning, nothing pushed, no model call", async (_what, head) => {
    const stack = await startStack([]);
    const mainBefore = gitSync(stack.remoteDir, "rev-parse", "main");
    const payload = issueCommentCreated("/implement push this to main", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    payload.issue.pull_request = { url: `${API}${REPO_PATH}/pulls/1` };
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    mockJobComments({ progressId: 70, edits, trigger: { id: payload.comment.id }, conversation: false }).get(`${REPO_PATH}/pulls/1`).reply(200, head);

    const job = await stack.runToEnd("issue_comment", payload, `fork-${Math.random()}`);

    expect(job.outcome).toMatch(/^❌ Failed: this pull request comes from a fork/);
    expect(stack.git.requests).toEqual([]);
    expect(stack.fake.requests).toEqual([]);
    expect(gitSync(stack.remoteDir, "rev-parse", "main")).toBe(mainBefore);
  });
});

describe("a review comment on a renamed file's old path", () => {
  it("runs on the PR's own branch only: the old path is not brought back, main is untouched", async () => {
    const stack = await startStack(
      [
        { content: [use("edit", { path: "new.txt", oldText: "hello", newText: "hi" })] },
        { text: "## Completed\nDone.\n## Files Changed\n- new.txt\n## Notes\nNone." },
      ],
      { files: { "old.txt": "hello\n" } },
    );
    gitSync(stack.remoteDir, "checkout", "-q", "-b", "renamed");
    gitSync(stack.remoteDir, "mv", "old.txt", "new.txt");
    gitSync(stack.remoteDir, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "rename");
    gitSync(stack.remoteDir, "checkout", "-q", "main");
    gitSync(stack.remoteDir, "update-ref", "refs/pull/2/head", "renamed");
    const mainBefore = gitSync(stack.remoteDir, "rev-parse", "main");

    const payload = reviewCommentCreated("/implement say hi instead", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    Object.assign(payload.comment, { path: "old.txt", side: "LEFT", line: 1, original_line: 1, position: null, subject_type: "line" });
    mockInstallationToken();
    mockBotUser();
    mockPermission("Codertocat", "write");
    let reply = "";
    mockJobComments({ progressId: 71, edits: [], number: 2, trigger: { id: payload.comment.id, review: true }, pull: { reviewComments: [payload.comment] } })
      .get(`${REPO_PATH}/pulls/2`)
      .reply(200, pr("renamed"))
      .post(`${REPO_PATH}/pulls/2/comments`, (b) => ((reply = b.body), b.in_reply_to === payload.comment.id))
      .reply(201, {});

    mockHeadCheckRuns();
    const job = await stack.runToEnd("pull_request_review_comment", payload, "renamed-review");

    expect(job.outcome).toMatch(/^✅ Done/);
    expect(reply).toMatch(/^Done in [0-9a-f]{7}\./);
    expect(gitSync(stack.remoteDir, "ls-tree", "--name-only", "renamed").trim().split("\n")).toEqual(["new.txt"]);
    expect(gitSync(stack.remoteDir, "show", "renamed:new.txt")).toBe("hi\n");
    expect(gitSync(stack.remoteDir, "rev-parse", "main")).toBe(mainBefore);
  });
});

describe("automatic reviews on a repository no longer covered", () => {
  it("a pull_request event after the repository was removed queues nothing", async () => {
    const stack = await startStack([], { runner: false });
    const group = (examples as unknown as Array<{ name: string; examples: Array<Record<string, any>> }>).find((g) => g.name === "installation_repositories");
    const removed = structuredClone(group!.examples.find((e) => e.action === "removed")!);
    removed.installation.id = INSTALLATION_ID;
    removed.repository_selection = "selected";
    removed.repositories_removed = [{ full_name: `${REPO_OWNER}/${REPO_NAME}`, name: REPO_NAME }];
    await stack.probot.receive({ id: "removed", name: "installation_repositories", payload: removed } as never);
    await stack.probot.receive({ id: "pr-opened", name: "pull_request", payload: pullRequestEvent("opened", { headSha: "a".repeat(40) }) } as never);
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);
  });
});
