/**
 * `/implement` against what real repositories refuse: drafts on plans without them, branch rules
 * that refuse the push (GH013: signed commits), and `implement.commits: api`, whose commits GitHub
 * makes (and signs) through the Git Data API.
 */
import { existsSync } from "node:fs";
import { chmod, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { issueCommentCreated } from "../fixtures/payloads.js";
import type { Script } from "../helpers/fake-anthropic.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { mockBotUser, mockInstallationToken, mockJobComments, mockPermission, normalise, REPO_PATH, startStack, TOKEN } from "./harness.js";

useNock();

const PLAN = "## Plan\n1. Fix the README\n2. Add a script";
const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });
const BRANCH = "crewbot/issue-1-spelling-error-in-the-readme-file";
const PR = { number: 21, html_url: "https://github.com/Codertocat/Hello-World/pull/21" };

/** A worker that fixes the README (step 1), then adds an executable script and deletes a file (step 2). */
const SCRIPT: Script = [
  { text: "Scout report." },
  { text: PLAN },
  { content: [use("edit", { path: "README.md", oldText: "commmit", newText: "commit" })] },
  {
    content: [
      { type: "text" as const, text: "[DONE:1]" },
      use("write", { path: "run.sh", content: "#!/bin/sh\necho hi\n" }),
      use("bash", { command: "chmod +x run.sh && rm old.txt" }),
    ],
  },
  { text: "[DONE:2]\n## Completed\nBoth.\n## Files Changed\n- README.md\n- run.sh\n## Notes\nNone." },
];
const FILES = { "README.md": "# Hello commmit\n", "old.txt": "old\n" };

async function start(config?: string) {
  const stack = await startStack(SCRIPT, { files: FILES });
  const payload = issueCommentCreated("/implement", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
  mockInstallationToken();
  mockBotUser();
  mockPermission("Codertocat", "write");
  const edits: string[] = [];
  const comments = mockJobComments({ progressId: 90, edits, trigger: { id: payload.comment.id }, config: config === undefined ? {} : { repo: config } });
  return { stack, payload, edits, comments };
}

const pushes = (stack: { git: { requests: { url: string; method: string }[] } }) =>
  stack.git.requests.filter((r) => r.method === "POST" && r.url.endsWith("/git-receive-pack"));

describe("/implement where GitHub refuses drafts", () => {
  it("opens a ready pull request instead and says so in the PR and the final comment", async () => {
    const { stack, payload, edits, comments } = await start();
    const bodies: any[] = [];
    comments
      .post(`${REPO_PATH}/pulls`, (b) => (bodies.push(b), b.draft === true))
      .reply(422, { message: "Draft pull requests are not supported in this repository.", documentation_url: "https://docs.github.com/rest/pulls/pulls#create-a-pull-request" })
      .post(`${REPO_PATH}/pulls`, (b) => (bodies.push(b), b.draft === false))
      .reply(201, PR);

    const job = await stack.runToEnd("issue_comment", payload, "implement-no-drafts");

    expect(job.outcome).toMatch(/^✅ Done/);
    expect(bodies.map((b) => b.draft)).toEqual([true, false]);
    const { body: ready, ...rest } = bodies[1];
    expect(rest).toEqual({ title: "Spelling error in the README file", head: BRANCH, base: "main", draft: false });
    expect(normalise(ready, job.id).replace(/Made by crewbot · .*/, "Made by crewbot · FIGURES")).toBe(
      [
        "Closes #1",
        "",
        "## Plan",
        "- [x] Fix the README",
        "- [x] Add a script",
        "",
        "## Notes",
        "- GitHub does not support draft pull requests in this repository, so this pull request is ready for review instead of a draft",
        "",
        "---",
        "Made by crewbot · FIGURES",
      ].join("\n"),
    );
    expect(bodies[0].body).not.toContain("ready for review");
    const final = edits.at(-1)!;
    expect(final).toMatch(/^✅ Done · /);
    expect(final).toContain("Pull request [#21](https://github.com/Codertocat/Hello-World/pull/21)");
    expect(final).toContain("GitHub does not support draft pull requests in this repository, so this pull request is ready for review instead of a draft");
    expect(gitSync(stack.remoteDir, "ls-tree", "--name-only", BRANCH).trim().split("\n")).toEqual(["README.md", "run.sh"]);
  });
});

describe("/implement where a branch rule refuses the push", () => {
  it("fails naming the rule and `implement.commits: api`, opens no PR, and keeps the commits in the job's artifacts", async () => {
    const { stack, payload, edits } = await start();
    // GitHub's own answer to unsigned commits under a ruleset, from the served repository's hook.
    const hook = path.join(stack.remoteDir, ".git", "hooks", "pre-receive");
    await writeFile(
      hook,
      [
        "#!/bin/sh",
        "cat >/dev/null",
        `echo "error: GH013: Repository rule violations found for refs/heads/${BRANCH}." >&2`,
        "echo 'Review all repository rules at https://github.com/Codertocat/Hello-World/rules' >&2",
        "echo '' >&2",
        "echo '- Commits must have verified signatures.' >&2",
        "echo '  Found 2 violations:' >&2",
        "exit 1",
      ].join("\n") + "\n",
    );
    await chmod(hook, 0o755);

    const job = await stack.runToEnd("issue_comment", payload, "implement-gh013");

    expect(job.state).toBe("failed");
    const reason =
      `pushing to ${BRANCH} was refused by a branch rule (GH013): “Commits must have verified signatures”; ` +
      "set `implement.commits: api` in .github/crewbot.yml: GitHub then makes crewbot's commits itself and signs them (Verified)";
    expect(job.outcome).toContain(`❌ Failed: ${reason}`);
    const final = edits.at(-1)!;
    expect(final.split("\n")[0]).toContain("❌ Failed: pushing to");
    expect(final).toContain("Commits must have verified signatures");
    expect(final).toContain("implement.commits: api");
    expect(final).toContain(`The 2 commits are kept in this job's artifacts: https://crewbot.example.com/jobs/${job.id}/artifacts/commits.patch (apply with`);
    expect(final).not.toContain("Pull request");
    expect(final).not.toContain(`Branch [`);
    expect(final).toContain("- [x] Fix the README\n- [x] Add a script\n"); // no links to commits GitHub does not have
    expect(gitSync(stack.remoteDir, "branch", "--list", "crewbot/*")).toBe("");
    // The work is kept: a patch `git am` applies on the default branch gives the worker's tree.
    const patch = await readFile(path.join(stack.dataDir, "jobs", job.id, "artifacts", "commits.patch"), "utf8");
    expect(patch).toContain("Subject: [PATCH 1/2] Fix the README");
    expect(patch).toContain("Subject: [PATCH 2/2] Add a script");
    expect(patch).toContain("new file mode 100755");
    expect(patch).toContain("deleted file mode 100644");
    expect(patch).not.toContain(TOKEN);
  });
});

describe("/implement with implement.commits: api", () => {
  it("makes each step's commit through blobs, trees and commits, then creates the branch's ref — no git push", async () => {
    const { stack, payload, edits, comments } = await start("implement:\n  commits: api\n");
    const base = gitSync(stack.remoteDir, "rev-parse", "main").trim();
    const baseTree = gitSync(stack.remoteDir, "rev-parse", "main^{tree}").trim();
    const sha = (c: string) => c.repeat(40);
    const sent: Array<[string, any]> = [];
    const record = (what: string) => (body: any) => (sent.push([what, body]), true);
    let prBody: any;
    comments
      .post(`${REPO_PATH}/git/blobs`, record("blob"))
      .reply(201, { sha: sha("1"), url: "https://api.github.com/b1" })
      .post(`${REPO_PATH}/git/trees`, record("tree"))
      .reply(201, { sha: sha("2"), url: "https://api.github.com/t2", tree: [], truncated: false })
      .post(`${REPO_PATH}/git/commits`, record("commit"))
      .reply(201, { sha: sha("3"), verification: { verified: true, reason: "valid" } })
      .post(`${REPO_PATH}/git/blobs`, record("blob"))
      .reply(201, { sha: sha("4"), url: "https://api.github.com/b4" })
      .post(`${REPO_PATH}/git/trees`, record("tree"))
      .reply(201, { sha: sha("5"), url: "https://api.github.com/t5", tree: [], truncated: false })
      .post(`${REPO_PATH}/git/commits`, record("commit"))
      .reply(201, { sha: sha("6"), verification: { verified: true, reason: "valid" } })
      .post(`${REPO_PATH}/git/refs`, record("ref"))
      .reply(201, { ref: `refs/heads/${BRANCH}`, object: { sha: sha("6"), type: "commit" } })
      .post(`${REPO_PATH}/pulls`, (b) => ((prBody = b), true))
      .reply(201, PR);

    const job = await stack.runToEnd("issue_comment", payload, "implement-api-commits");

    expect(job.outcome).toMatch(/^✅ Done/);
    const b64 = (text: string) => Buffer.from(text).toString("base64");
    const coAuthor = "Co-authored-by: Codertocat <21031067+Codertocat@users.noreply.github.com>";
    expect(sent).toEqual([
      ["blob", { content: b64("# Hello commit\n"), encoding: "base64" }],
      ["tree", { base_tree: baseTree, tree: [{ path: "README.md", mode: "100644", type: "blob", sha: sha("1") }] }],
      ["commit", { message: `Fix the README\n\n${coAuthor}\n`, tree: sha("2"), parents: [base] }],
      ["blob", { content: b64("#!/bin/sh\necho hi\n"), encoding: "base64" }],
      [
        "tree",
        {
          base_tree: sha("2"),
          tree: [
            { path: "old.txt", mode: "100644", type: "blob", sha: null },
            { path: "run.sh", mode: "100755", type: "blob", sha: sha("4") },
          ],
        },
      ],
      ["commit", { message: `Add a script\n\n${coAuthor}\n`, tree: sha("5"), parents: [sha("3")] }],
      ["ref", { ref: `refs/heads/${BRANCH}`, sha: sha("6") }],
    ]);
    // Nothing was pushed with git; the served repository has no crewbot branch.
    expect(pushes(stack)).toEqual([]);
    expect(gitSync(stack.remoteDir, "branch", "--list", "crewbot/*")).toBe("");
    expect(prBody).toMatchObject({ head: BRANCH, base: "main", draft: true });
    // The ticked steps link to GitHub's commits, not to the local ones.
    const final = edits.at(-1)!;
    expect(final).toContain(`- [x] Fix the README ✅ [3333333](${stack.cloneUrl.replace(/\.git$/, "")}/commit/${sha("3")})`);
    expect(final).toContain(`- [x] Add a script ✅ [6666666](${stack.cloneUrl.replace(/\.git$/, "")}/commit/${sha("6")})`);
    expect(existsSync(path.join(stack.dataDir, "jobs", job.id, "artifacts", "commits.patch"))).toBe(false);
  });
});

describe("/implement with implement.commits: api where a ruleset refuses the new branch", () => {
  it("fails naming the rule of GitHub's 422, opens no PR, and keeps the commits", async () => {
    const { stack, payload, edits, comments } = await start("implement: { commits: api }\n");
    let n = 0;
    const next = () => ({ sha: String(++n).repeat(40).slice(0, 40) });
    comments
      .post(`${REPO_PATH}/git/blobs`)
      .times(2)
      .reply(201, () => next())
      .post(`${REPO_PATH}/git/trees`)
      .times(2)
      .reply(201, () => ({ ...next(), tree: [], truncated: false }))
      .post(`${REPO_PATH}/git/commits`)
      .times(2)
      .reply(201, () => next())
      .post(`${REPO_PATH}/git/refs`)
      .reply(422, {
        message: "Repository rule violations found\n\nCannot create ref due to creations being restricted.\n\n",
        documentation_url: "https://docs.github.com/rest/git/refs#create-a-reference",
        status: "422",
      });

    const job = await stack.runToEnd("issue_comment", payload, "implement-api-refused");

    expect(job.state).toBe("failed");
    const final = edits.at(-1)!;
    expect(final.split("\n")[0]).toMatch(
      new RegExp(
        `^❌ Failed: updating ${BRANCH.replaceAll("/", "\\/")} was refused by a branch rule \\(HTTP 422\\): “Cannot create ref due to creations being restricted”; ask a repository admin to exclude \`crewbot\\/\\*\\*\` branches from the rule`,
      ),
    );
    expect(final).toContain(`The 2 commits are kept in this job's artifacts: https://crewbot.example.com/jobs/${job.id}/artifacts/commits.patch`);
    expect(final).not.toContain("Pull request");
    expect(pushes(stack)).toEqual([]);
  });
});
