/**
 * `/implement` as `.github/crewbot.yml` shapes it: setup and check commands, the
 * implement-and-review chain, models, workflow edits, commands turned off, an invalid file.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { mockBotUser, mockInstallationToken, mockJobComments, mockPermission, REPO_PATH, startStack, TOKEN } from "./harness.js";

useNock();

const PLAN = "## Plan\n1. Fix the README\n2. Add a changelog entry";
const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });
const BRANCH = "crewbot/issue-1-spelling-error-in-the-readme-file";

const CONFIG = `
implement:
  chain: implement-and-review
  allowWorkflowEdits: true
  setup:
    - "mkdir -p deps && echo lib > deps/lib.js && echo changed >> package.json && echo setup-ran"
  check:
    - "test -f CHANGELOG.md && echo changelog-ok"
    - "grep -c commit README.md"
models:
  worker: claude-haiku-4-5
`;

/** An /implement job that ends before any agent runs, with `config` as the repository's file. */
async function runStopped(config: string, progressId: number, readsConversation: boolean) {
  const stack = await startStack([{ text: "never asked" }]);
  const payload = issueCommentCreated("/implement", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
  mockInstallationToken();
  mockPermission("Codertocat", "write");
  const edits: string[] = [];
  mockJobComments({ progressId, edits, trigger: { id: payload.comment.id }, conversation: readsConversation ? [] : false, config: { repo: config } });
  const job = await stack.runToEnd("issue_comment", payload, `implement-stopped-${progressId}-${config.length}`);
  expect(stack.fake.requests).toHaveLength(0);
  return { stack, job, final: edits.at(-1)! };
}

describe("/implement with setup, checks and the implement-and-review chain", () => {
  it("runs setup before the agents, keeps its output out of the commits, reviews, fixes, checks, and reports the checks", async () => {
    const stack = await startStack(
      [
        { text: "Scout report." },
        { text: PLAN },
        { content: [use("edit", { path: "README.md", oldText: "commmit", newText: "commit" })] },
        { content: [{ type: "text", text: "[DONE:1]" }, use("write", { path: ".github/workflows/ci.yml", content: "on: push\n" })] },
        { text: "[DONE:2]\n## Completed\nBoth.\n## Files Changed\n- README.md\n## Notes\nNo changelog yet." },
        { text: "## Warnings\n- README.md:1 - the changelog is missing\n\n## Summary\nAdd a changelog." },
        { content: [use("write", { path: "CHANGELOG.md", content: "- fixed a typo\n" })] },
        { text: "## Completed\nAdded the changelog.\n## Files Changed\n- CHANGELOG.md\n## Notes\nNone." },
      ],
      { files: { "README.md": "# Hello commmit\n", "package.json": "{}\n" } },
    );
    const payload = issueCommentCreated("/implement", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockBotUser();
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    let prBody: any;
    mockJobComments({ progressId: 80, edits, trigger: { id: payload.comment.id }, config: { repo: CONFIG } })
      .post(`${REPO_PATH}/pulls`, (b) => ((prBody = b), true))
      .reply(201, { number: 14, html_url: "https://github.com/Codertocat/Hello-World/pull/14" });

    const job = await stack.runToEnd("issue_comment", payload, "implement-config-1");
    expect(job.outcome).toMatch(/^✅ Done/);

    // Step commits, then the fix after the review; the workflow change is allowed by the config.
    expect(gitSync(stack.remoteDir, "log", "--format=%s", BRANCH, "^main").trim().split("\n")).toEqual([
      "Address the review's findings",
      "Add a changelog entry",
      "Fix the README",
    ]);
    const tree = gitSync(stack.remoteDir, "ls-tree", "-r", "--name-only", BRANCH).trim().split("\n");
    expect(tree).toEqual([".github/workflows/ci.yml", "CHANGELOG.md", "README.md", "package.json"]);
    // What setup made or changed is not in any commit.
    expect(gitSync(stack.remoteDir, "show", `${BRANCH}:package.json`)).toBe("{}\n");

    // The reviewer read the committed diff; the worker ran on the configured model.
    const reviewer = stack.fake.requests[5]!.body;
    expect(JSON.stringify(reviewer.messages)).toContain("the changes made so far (git diff)");
    expect(JSON.stringify(reviewer.messages)).toContain("+# Hello commit");
    // … and the check commands' results on it: the changelog was still missing then.
    const reviewerPrompt = reviewer.messages[0].content[0].text as string;
    expect(reviewerPrompt).toContain(`<document source="the check commands' results on the committed changes">`);
    expect(reviewerPrompt).toMatch(/FAILED: test -f CHANGELOG\.md && echo changelog-ok \(exit code 1\)/);
    expect(reviewerPrompt).toContain("not run (an earlier check failed): grep -c commit README.md");
    expect(reviewerPrompt).toContain("## Plan\n1. Fix the README"); // the plan the worker followed
    // The worker was told the checks that judge its work, and got the scout's report beside the plan.
    const worker = stack.fake.requests[2]!.body.messages[0].content[0].text as string;
    expect(worker).toMatch(/crewbot runs these commands on your committed work; the job fails if one of them fails:\n- `test -f CHANGELOG\.md && echo changelog-ok`\n- `grep -c commit README\.md`/);
    expect(worker).toContain("The scout's report on the repository (use it instead of exploring again):\nScout report.");
    expect(stack.fake.requests.map((r) => r.body.model)).toEqual([
      "claude-haiku-4-5", // scout (bundled)
      "claude-sonnet-5-5",
      "claude-haiku-4-5",
      "claude-haiku-4-5",
      "claude-haiku-4-5",
      "claude-sonnet-5-5", // reviewer
      "claude-haiku-4-5",
      "claude-haiku-4-5",
    ]);

    // The checks' verdict, in the PR body and the final comment.
    for (const text of [prBody.body as string, edits.at(-1)!]) {
      expect(text).toMatch(/## Setup\n✅ `mkdir -p deps [^`]*` · exit code 0 · \d+s\n<details><summary>Output \(last lines\)<\/summary>\n\n```text\nsetup-ran\n```/);
      expect(text).toMatch(/## Checks\n✅ `test -f CHANGELOG.md && echo changelog-ok` · exit code 0 · \d+s\n[\s\S]*changelog-ok[\s\S]*✅ `grep -c commit README.md` · exit code 0/);
    }
    expect(edits.at(-1)).toContain("package.json; put back, so the commits hold only the worker's changes");
    const artifacts = path.join(stack.dataDir, "jobs", job.id, "artifacts");
    expect(await readFile(path.join(artifacts, "setup-1.log"), "utf8")).toBe("setup-ran\n");
    expect((await readdir(artifacts)).filter((f) => f.startsWith("check-")).sort()).toEqual(["check-1.log", "check-2.log"]);
    expect(JSON.stringify([prBody, edits])).not.toContain(TOKEN);
  });

  it("opens the PR but fails the job when a check fails: the verdict comes from the checks", async () => {
    const stack = await startStack(
      [
        { text: "Scout report." },
        { text: PLAN },
        { content: [use("edit", { path: "README.md", oldText: "commmit", newText: "commit" })] },
        { text: "[DONE:1]\n[DONE:2]\n## Completed\nAll done, tests pass.\n## Files Changed\n- README.md\n## Notes\nNone." },
      ],
      { files: { "README.md": "# Hello commmit\n" } },
    );
    const payload = issueCommentCreated("/implement", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockBotUser();
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    let prBody: any;
    mockJobComments({ progressId: 81, edits, trigger: { id: payload.comment.id }, config: { repo: 'implement: { check: ["echo 2 tests failed; exit 3", "echo never"] }' } })
      .post(`${REPO_PATH}/pulls`, (b) => ((prBody = b), true))
      .reply(201, { number: 15, html_url: "https://github.com/Codertocat/Hello-World/pull/15" });

    const job = await stack.runToEnd("issue_comment", payload, "implement-config-2");

    expect(job.state).toBe("failed");
    expect(job.outcome).toMatch(/^❌ Failed: check failed: echo 2 tests failed; exit 3 \(exit code 3\) · /);
    expect(prBody.body).toMatch(/## Checks\n❌ `echo 2 tests failed; exit 3` · exit code 3 · \d+s\n<details>[\s\S]*2 tests failed/);
    expect(prBody.body).not.toContain("echo never"); // checks stop at the first failure
    expect(edits.at(-1)).toContain("Pull request [#15]");
  });
});

describe("/implement stopped by the repository's config", () => {
  it("fails before the agents when a setup command fails, and pushes nothing", async () => {
    const { stack, job, final } = await runStopped('implement:\n  setup: ["echo installing; false", "echo never"]\n', 82, true);

    expect(job.outcome).toMatch(/^❌ Failed: setup failed: echo installing; false \(exit code 1\) · /);
    expect(gitSync(stack.remoteDir, "branch", "--list", "crewbot/*")).toBe("");
    expect(final).toMatch(/## Setup\n❌ `echo installing; false` · exit code 1 · \d+s\n<details>[\s\S]*installing/);
    expect(final).not.toContain("echo never");
  });

  it.each([
    ["an invalid file", false, "implement:\n  setup: npm ci\nbudgets: { maxTurns: -1 }\nextra: 1\n", [
      "❌ Failed: .github/crewbot.yml is invalid; fix it on the default branch and write the command again · ",
      '- `implement.setup`: expected a list of commands (strings), got "npm ci"',
      "- `budgets.maxTurns`: expected a whole number above 0, got the number -1",
      "- `extra`: unknown key; expected one of commands, triggers, learnings, review, implement, budgets, mcp, models, sandbox, ask, transcripts",
    ]],
    ["an unknown chain", true, "implement: { chain: implement-twice }\n", [
      "❌ Failed: .github/crewbot.yml is invalid; fix it on the default branch and write the command again · ",
      '- `implement.chain`: expected a chain with a worker step (implement, implement-and-review); there is no chain "implement-twice"',
    ]],
    ["/implement turned off", false, "commands: { implement: false }\n", [
      "❌ Failed: /implement is turned off for this repository (commands.implement: false in .github/crewbot.yml) · ",
    ]],
  ] as const)("answers %s in the progress comment, naming the key, and runs nothing", async (_name, readsConversation, config, expected) => {
    const { job, final } = await runStopped(config, 83, readsConversation);
    expect(job.state).toBe("failed");
    for (const line of expected) expect(final).toContain(line);
  });
});
