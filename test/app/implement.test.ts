import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { mockBotUser, mockInstallationToken, mockJobComments, mockPermission, REPO_PATH, startStack, TOKEN } from "./harness.js";

useNock();

const PLAN = "## Goal\nFix the typo.\n\n## Plan\n1. Fix the README\n2. Add a changelog entry\n\n## Risks\nNone.";
const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });

describe("/implement on an issue, end to end", () => {
  it("commits each finished step as the bot, pushes crewbot's branch with the token as a header and opens a draft PR", async () => {
    const stack = await startStack(
      [
        { text: "Scout report." },
        { text: PLAN },
        { content: [use("edit", { path: "README.md", oldText: "commmit", newText: "commit" })] },
        {
          content: [
            { type: "text", text: "[DONE:1]" },
            use("write", { path: "CHANGELOG.md", content: "- fixed a typo\n" }),
            // A hostile worker: a workflow change is refused, not committed; a hook cannot be planted;
            // pushing itself gets nowhere (no token, no network in the sandbox).
            use("write", { path: ".github/workflows/ci.yml", content: "on: push\n" }),
            use("write", { path: ".git/hooks/pre-commit", content: "#!/bin/sh\ntouch /tmp/crewbot-pwned\n" }),
            use("bash", { command: "printf '#!/bin/sh\\nexit 1\\n' > .git/hooks/pre-commit; git push origin HEAD:main 2>&1; echo pushed=$?" }),
          ],
        },
        { text: "[DONE:2]\n## Completed\nBoth.\n## Files Changed\n- README.md\n- CHANGELOG.md\n## Notes\nNone." },
      ],
      { files: { "README.md": "# Hello commmit\n" } },
    );
    const payload = issueCommentCreated("/implement", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockBotUser();
    mockPermission("Codertocat", "write"); // asked once: the job reuses the trigger's answer
    let prBody: any;
    const edits: string[] = [];
    mockJobComments({ progressId: 77, edits, trigger: { id: payload.comment.id } })
      .post(`${REPO_PATH}/pulls`, (b) => ((prBody = b), true))
      .reply(201, { number: 12, html_url: "https://github.com/Codertocat/Hello-World/pull/12" });

    const job = await stack.runToEnd("issue_comment", payload, "implement-1");
    expect(job.outcome).toMatch(/^✅ Done/);

    const branch = "crewbot/issue-1-spelling-error-in-the-readme-file";
    // The remote has the branch: one commit per step, by the bot, with the requester as co-author.
    const log = gitSync(stack.remoteDir, "log", "--format=%an <%ae>|%s|%(trailers:key=Co-authored-by,valueonly)", `${branch}`, "^main");
    expect(log.trim().split("\n").filter(Boolean)).toEqual([
      "crewbot[bot] <41898282+crewbot[bot]@users.noreply.github.com>|Add a changelog entry|Codertocat <21031067+Codertocat@users.noreply.github.com>",
      "",
      "crewbot[bot] <41898282+crewbot[bot]@users.noreply.github.com>|Fix the README|Codertocat <21031067+Codertocat@users.noreply.github.com>",
    ].filter(Boolean));
    expect(gitSync(stack.remoteDir, "show", `${branch}:README.md`)).toBe("# Hello commit\n");
    expect(gitSync(stack.remoteDir, "ls-tree", "-r", "--name-only", branch).split("\n")).not.toContain(".github/workflows/ci.yml");
    expect(gitSync(stack.remoteDir, "log", "--format=%B", branch)).not.toContain(TOKEN);
    // main on the remote did not move; no hook was planted.
    expect(gitSync(stack.remoteDir, "log", "--format=%s", "main")).toBe("initial\n");
    const toolResults = JSON.stringify(stack.fake.requests[4]!.body.messages.at(-1));
    expect(toolResults).toMatch(/\.git/);
    expect(toolResults).toMatch(/pushed=[1-9]/);
    expect(existsSync("/tmp/crewbot-pwned")).toBe(false);

    expect(prBody).toMatchObject({ title: "Spelling error in the README file", head: branch, base: "main", draft: true });
    expect(prBody.body).toMatch(
      /^Closes #1\n\n## Goal\nFix the typo\.\n\n## Plan\n- \[x\] Fix the README\n- \[x\] Add a changelog entry\n\n## Notes\n- Not committed: \.github\/workflows\/ci\.yml \(changes under \.github\/workflows are not allowed\)\n\n---\nMade by crewbot · /,
    );
    const final = edits.at(-1)!;
    expect(final).toMatch(/^✅ Done · /);
    expect(final).toContain("Pull request [#12](https://github.com/Codertocat/Hello-World/pull/12)");
    expect(final).toMatch(/Branch \[`crewbot\/issue-1-[^`]+`\]\(.+\) · \[Transcript\]\(https:\/\/crewbot\.example\.com\/jobs\//); // links add up
    expect(final).toMatch(/- \[x\] Fix the README ✅ \[[0-9a-f]{7}\]\(http:\/\/127\.0\.0\.1:\d+\/Codertocat\/Hello-World\/commit\/[0-9a-f]{40}\)/);
    expect(JSON.stringify([prBody, edits])).not.toContain(TOKEN);
  });
});

describe("/implement that stops part-way", () => {
  it("pushes the finished steps, opens no PR, and says what was done and why it stopped", async () => {
    const stack = await startStack(
      [
        { text: "Scout report." },
        { text: PLAN },
        { content: [use("edit", { path: "README.md", oldText: "commmit", newText: "commit" })] },
        { content: [{ type: "text", text: "[DONE:1]" }, use("write", { path: "CHANGELOG.md", content: "- half\n" })] },
      ],
      { files: { "README.md": "# Hello commmit\n" } },
    );
    const payload = issueCommentCreated("/implement", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockBotUser();
    mockPermission("Codertocat", "write"); // asked once: the job reuses the trigger's answer
    const edits: string[] = [];
    // Scout, planner and two worker turns, then the turn budget of the repository's config is spent.
    mockJobComments({ progressId: 78, edits, trigger: { id: payload.comment.id }, config: { repo: "budgets:\n  maxTurns: 4\n" } });

    const job = await stack.runToEnd("issue_comment", payload, "implement-partial");

    expect(job.outcome).toMatch(/^⏸ Stopped: turn budget reached \(4 turns\) for the job \(budgets\.maxTurns\)/);
    const branch = "crewbot/issue-1-spelling-error-in-the-readme-file";
    expect(gitSync(stack.remoteDir, "log", "--format=%s", branch, "^main").trim().split("\n")).toEqual([
      "Remaining changes for: Spelling error in the README file",
      "Fix the README",
    ]);
    const final = edits.at(-1)!;
    expect(final).toMatch(/^⏸ Stopped: turn budget reached/);
    expect(final).toContain(`Branch [\`${branch}\`]`);
    expect(final).toMatch(/- \[x\] Fix the README ✅/);
    expect(final).toContain("- [ ] Add a changelog entry");
    expect(final).not.toContain("Pull request");
  });
});
