/** `/implement <feedback>` on a pull request with `implement.commits: api`: the PR's branch moved through the API, never pushed. */
import { describe, expect, it } from "vitest";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { mockHeadCheckRuns } from "../helpers/check-runs.js";
import { API, mockBotUser, mockInstallationToken, mockJobComments, mockPermission, REPO_PATH, startStack } from "./harness.js";

useNock();

const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });

describe("/implement <feedback> with implement.commits: api", () => {
  it("remakes the commit through the Git Data API and moves the PR's branch with PATCH, without force", async () => {
    const stack = await startStack(
      [
        { content: [use("edit", { path: "greet.txt", oldText: "hello", newText: "hi" })] },
        { text: "## Completed\nRenamed.\n## Files Changed\n- greet.txt\n## Notes\nNone." },
      ],
      { files: { "greet.txt": "hello\n" } },
    );
    gitSync(stack.remoteDir, "branch", "feature-x");
    gitSync(stack.remoteDir, "update-ref", "refs/pull/1/head", "feature-x");
    const head = gitSync(stack.remoteDir, "rev-parse", "feature-x").trim();
    const payload = issueCommentCreated("/implement rename the greeting", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    payload.issue.pull_request = { url: `${API}${REPO_PATH}/pulls/1` };
    mockInstallationToken();
    mockBotUser();
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    const sent: Array<[string, any]> = [];
    const record = (what: string) => (body: any) => (sent.push([what, body]), true);
    mockJobComments({ progressId: 96, edits, trigger: { id: payload.comment.id }, config: { repo: "implement: { commits: api }\n" }, pull: {} })
      .get(`${REPO_PATH}/pulls/1`)
      .reply(200, { head: { ref: "feature-x", sha: head, repo: { full_name: "Codertocat/Hello-World" } }, base: { repo: { full_name: "Codertocat/Hello-World" } } })
      .post(`${REPO_PATH}/git/blobs`, record("blob"))
      .reply(201, { sha: "b".repeat(40) })
      .post(`${REPO_PATH}/git/trees`, record("tree"))
      .reply(201, { sha: "c".repeat(40), tree: [], truncated: false })
      .post(`${REPO_PATH}/git/commits`, record("commit"))
      .reply(201, { sha: "d".repeat(40) })
      .patch(`${REPO_PATH}/git/refs/heads%2Ffeature-x`, record("ref"))
      .reply(200, { ref: "refs/heads/feature-x", object: { sha: "d".repeat(40), type: "commit" } });

    mockHeadCheckRuns();
    const job = await stack.runToEnd("issue_comment", payload, "feedback-api");

    expect(job.outcome).toMatch(/^✅ Done/);
    expect(sent).toEqual([
      ["blob", { content: Buffer.from("hi\n").toString("base64"), encoding: "base64" }],
      ["tree", { base_tree: gitSync(stack.remoteDir, "rev-parse", "feature-x^{tree}").trim(), tree: [{ path: "greet.txt", mode: "100644", type: "blob", sha: "b".repeat(40) }] }],
      ["commit", { message: "Address feedback: rename the greeting\n\nCo-authored-by: Codertocat <21031067+Codertocat@users.noreply.github.com>\n", tree: "c".repeat(40), parents: [head] }],
      ["ref", { sha: "d".repeat(40), force: false }],
    ]);
    // The PR's branch on the served repository was not pushed to.
    expect(gitSync(stack.remoteDir, "rev-parse", "feature-x").trim()).toBe(head);
  });
});
