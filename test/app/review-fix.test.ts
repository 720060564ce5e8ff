/**
 * "Fix these findings", end to end: the automatic review's check run offers the button; a reader's
 * click reads their permission and does nothing else; a writer's click runs the worker on the PR's
 * branch with crewbot's open threads as its task, pushes the fix to the served repository, and
 * reports in the progress comment which findings were fixed; the review of that push resolves them.
 */
import { describe, expect, it } from "vitest";
import { checkRunRequestedAction } from "../fixtures/check-run.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { GitHubGraphql } from "../helpers/github-graphql.js";
import { mockBotUser, mockInstallationToken, mockJobComments, mockPermission, REPO_PATH, startStack } from "./harness.js";
import { deliver, GREET, mockReviewJob, push, type Traffic } from "./review-harness.js";
import nock from "nock";

useNock();

const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });
const FIX_ACTION = { label: "Fix these findings", description: "crewbot fixes the open review findings", identifier: "fix" };

describe("the Fix these findings button", () => {
  it("does nothing for a reader; for a writer pushes a fix to the PR's branch, reports it, and the next review resolves the fixed thread", async () => {
    const stack = await startStack(
      [
        { text: "## Critical\n- greet.js:10 - `line10` is now a string.\n## Warnings\n- greet.js:20 - `line20` shadows a global.\n## Summary\nTwo." },
        { content: [use("edit", { path: "greet.js", oldText: 'const line10 = "10";', newText: "const line10 = 10;" })] },
        { text: "## Completed\nline10 is a number again.\n## Files Changed\n- greet.js\n## Notes\n`line20` is meant to be the window." },
      ],
      { files: { "greet.js": GREET } },
    );
    gitSync(stack.remoteDir, "branch", "feature");
    const first = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";').replace("const line20 = 20;", "const line20 = window;") }, "first");
    const t: Traffic = { reviews: [], checks: [], rejected: [], graphql: new GitHubGraphql() };
    mockReviewJob(stack, t, { checkId: 601, review: true });
    await deliver(stack, "opened", first, "fix-opened");
    expect(t.checks.at(-1)!.body.actions).toEqual([FIX_ACTION]);
    const [line10, line20] = t.graphql!.threads;

    // A reader's click: their permission is read, and that is all.
    mockPermission("passerby", "read");
    await stack.probot.receive({ id: "click-reader", name: "check_run", payload: checkRunRequestedAction({ login: "passerby", headSha: first, cloneUrl: stack.cloneUrl }) } as never);
    expect((await stack.crewbot.queue.listRecent({ limit: 10 })).map((j) => j.kind)).toEqual(["review"]);
    expect(nock.pendingMocks()).toEqual([]);
    expect(stack.fake.requests).toHaveLength(1);

    // A writer's click: one job on the PR, reported in a progress comment.
    mockPermission("maintainer", "write");
    mockBotUser();
    t.graphql!.intercept(1);
    const edits: string[] = [];
    mockJobComments({ progressId: 96, edits, pull: {} })
      .get(`${REPO_PATH}/pulls/1`)
      .reply(200, {
        number: 1,
        state: "open",
        title: "Make the greeting friendlier",
        body: "Changes the greeting.",
        user: { login: "Codertocat" },
        head: { ref: "feature", sha: first, repo: { full_name: "Codertocat/Hello-World" } },
        base: { repo: { full_name: "Codertocat/Hello-World" } },
      });
    const job = await stack.runToEnd("check_run", checkRunRequestedAction({ login: "maintainer", headSha: first, cloneUrl: stack.cloneUrl }), "click-writer");

    expect(job.outcome).toMatch(/^✅ Done/);
    const fixed = gitSync(stack.remoteDir, "rev-parse", "feature").trim();
    expect(gitSync(stack.remoteDir, "log", "-1", "--format=%an|%P", "feature")).toBe(`crewbot[bot]|${first}\n`);
    expect(gitSync(stack.remoteDir, "show", "feature:greet.js")).toContain("const line10 = 10;\n");
    expect(gitSync(stack.remoteDir, "show", "feature:greet.js")).toContain("const line20 = window;\n");
    // The worker was given the open findings as its task.
    const task = JSON.stringify(stack.fake.requests[1]!.body.messages);
    expect(task).toContain("greet.js:10 — `line10` is now a string.");
    expect(task).toContain("greet.js:20 — `line20` shadows a global.");
    const final = edits.at(-1)!;
    expect(final).toMatch(/^✅ Done/);
    expect(final).toContain(`Pushed ${fixed.slice(0, 7)}: 1 of 2 findings fixed; the next review resolves their threads.`);
    expect(final).toContain("Fixed: greet.js:10 — `line10` is now a string.");
    expect(final).toContain("Not fixed (its lines are unchanged): greet.js:20 — `line20` shadows a global.");

    // GitHub moves the PR's head; the review of the push resolves the fixed thread only.
    gitSync(stack.remoteDir, "update-ref", "refs/pull/1/head", fixed);
    t.checks.length = 0;
    mockReviewJob(stack, t, { checkId: 602, cached: true, config: "review:\n  debounceSeconds: 0\n", graphql: 2 });
    await deliver(stack, "synchronize", fixed, "fix-sync");
    expect(t.graphql!.resolvedByMutation).toEqual([line10!.id]);
    expect(line20!.isResolved).toBe(false);
    expect(t.checks.at(-1)!.body.actions).toEqual([FIX_ACTION]); // line 20 is still open
  });

  it("a writer's click with no open thread left says so, and clones nothing", async () => {
    const stack = await startStack([]);
    const gh = new GitHubGraphql();
    const sha = "d".repeat(40);
    gh.addThread({ path: "a.js", line: 1, body: "**Warning** — fixed already. <!-- crewbot:finding:0123456789abcdef -->", author: "crewbot", bot: true, commit: sha }).isResolved = true;
    mockInstallationToken();
    mockPermission("maintainer", "write");
    gh.intercept(1);
    const edits: string[] = [];
    mockJobComments({ progressId: 97, edits, conversation: false, config: {} })
      .get(`${REPO_PATH}/pulls/1`)
      .reply(200, { number: 1, state: "open", title: "t", body: "", user: { login: "Codertocat" }, head: { ref: "feature", sha, repo: { full_name: "Codertocat/Hello-World" } }, base: { repo: { full_name: "Codertocat/Hello-World" } } });

    const job = await stack.runToEnd("check_run", checkRunRequestedAction({ login: "maintainer", headSha: sha, cloneUrl: stack.cloneUrl }), "click-nothing");

    expect(job.outcome).toMatch(/^❌ Failed: crewbot has no open review thread on this pull request to fix \(resolved and dismissed findings are left alone\)/);
    expect(edits.at(-1)).toMatch(/^❌ Failed: crewbot has no open review thread/);
    expect(stack.git.requests).toEqual([]);
    expect(stack.fake.requests).toEqual([]);
  });
});
