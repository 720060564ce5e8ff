/**
 * End to end: ci-fix on another bot's pull request. With `implement.ciFix.branches: ["renovate/**"]`
 * in the repository's config, a failed check suite on Renovate's same-repository PR gets the rounds
 * crewbot's own PRs get: the worker's fix pushed onto Renovate's branch as crewbot, the same round
 * limit and stop comment, nothing pushed over a rebase. Without the glob, nothing happens beyond the
 * config read.
 */
import { chmod, writeFile } from "node:fs/promises";
import path from "node:path";
import nock from "nock";
import { describe, expect, it } from "vitest";
import { checkSuiteCompleted } from "../fixtures/check-suite.js";
import type { FakeReply } from "../helpers/fake-anthropic.js";
import { checkRun, checkSuite, mockHeadCheckSuites, mockSuiteCheckRuns } from "../helpers/check-runs.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { RENOVATE_BRANCH, renovateBranch, renovatePull } from "./ci-fix-harness.js";
import { API, mockBotUser, mockInstallationToken, mockJobComments, mockRepoConfig, normalise, REPO_PATH, startStack, type Stack } from "./harness.js";

useNock();

const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });
const FIX: FakeReply[] = [{ content: [use("write", { path: "greet.txt", content: "hi\n" })] }, { text: "## Completed\nFixed the greeting.\n## Files Changed\n- greet.txt\n## Notes\nNone." }];
const CI = { id: 5, slug: "other-ci" };
const LISTED = 'implement:\n  ciFix:\n    branches: ["renovate/**"]\n';
const suite = (stack: Stack, suiteId: number, headSha: string) => checkSuiteCompleted({ suiteId, headSha, headBranch: RENOVATE_BRANCH, cloneUrl: stack.cloneUrl, app: CI });

/** A round's GitHub traffic besides the trigger's config read: the PR twice, the head's one failed suite and its run, the job's comment and context. */
function mockRound(sha: string, suiteId: number, edits: string[], config: string) {
  nock(API).get(`${REPO_PATH}/pulls/2`).times(2).reply(200, renovatePull(sha));
  mockHeadCheckSuites(sha, [checkSuite({ id: suiteId, headSha: sha, app: CI })]);
  mockSuiteCheckRuns(suiteId, [checkRun({ id: suiteId + 1, name: "test", app: CI, output: { title: "1 failing test", summary: "lodash.merge is not a function" } })]);
  // The author is an app, not a collaborator: its description is third-party text.
  nock(API).get(`${REPO_PATH}/collaborators/renovate%5Bbot%5D/permission`).reply(404, { message: "Not Found" });
  mockJobComments({ progressId: 700 + suiteId, edits, number: 2, pull: {}, config: { repo: config } });
}

/** Renovate rebases its branch: a new commit on main, not on crewbot's, force-pushed. */
function renovateRebases(stack: Stack): string {
  const rebased = gitSync(stack.remoteDir, "commit-tree", "main^{tree}", "-p", "main", "-m", "Update dependency lodash to v4.17.21 (rebased)").trim();
  gitSync(stack.remoteDir, "update-ref", `refs/heads/${RENOVATE_BRANCH}`, rebased);
  gitSync(stack.remoteDir, "update-ref", "refs/pull/2/head", rebased);
  return rebased;
}

/** A round on Renovate's branch with `branches: [renovate/**]`: the token, the bot user, the trigger's config read and the round's own requests; the progress edits. */
function mockListedRound(sha: string, suiteId: number): string[] {
  mockInstallationToken();
  mockBotUser();
  mockRepoConfig({ repo: LISTED });
  const edits: string[] = [];
  mockRound(sha, suiteId, edits, LISTED);
  return edits;
}

describe("ci-fix on Renovate's pull request", () => {
  it("with branches: [renovate/**], the worker's fix is pushed to Renovate's branch as crewbot", async () => {
    const stack = await startStack(FIX, { files: { "greet.txt": "hello\n" } });
    const sha = await renovateBranch(stack);
    const edits = mockListedRound(sha, 9700);

    const job = await stack.runToEnd("check_suite", suite(stack, 9700, sha), "renovate-1");

    expect(job.kind).toBe("ci-fix");
    expect(job.outcome).toMatch(/^✅ Done/);
    // Renovate's description (upstream release notes) is text of an app that is no collaborator: data, third-party.
    expect(JSON.stringify(stack.fake.requests[0]!.body.messages)).toContain('<document source=\\"pull request #2 by @renovate[bot]\\" trust=\\"third-party\\">');
    const pushed = gitSync(stack.remoteDir, "rev-parse", RENOVATE_BRANCH).trim();
    expect(gitSync(stack.remoteDir, "log", "-1", "--format=%P|%an|%s", RENOVATE_BRANCH)).toBe(`${sha}|crewbot[bot]|Fix failing checks: test\n`);
    expect(gitSync(stack.remoteDir, "log", "-1", "--format=%B", RENOVATE_BRANCH)).not.toContain("Co-authored-by"); // nobody asked, Renovate least
    expect(gitSync(stack.remoteDir, "show", `${RENOVATE_BRANCH}:greet.txt`)).toBe("hi\n");
    expect(figures(edits.at(-1)!, job.id)).toBe(
      [
        "✅ Done · FIGURES",
        "<!-- crewbot:job:JOB -->",
        "",
        "[Transcript](https://crewbot.example.com/jobs/JOB)",
        "",
        "**Notes**",
        `- Automatic fix, round 1 of 2: the check that failed on ${sha.slice(0, 7)}: \`test\``,
        `- Changed on \`renovate/lodash-4.x\` (${pushed.slice(0, 7)}): \`greet.txt\``,
      ].join("\n"),
    );
    expect(await stack.crewbot.services.records.ciFixRounds.get("codertocat/hello-world", 2)).toEqual({ rounds: 1, stopped: false });
  });

  it("after its rounds, a rebase by Renovate starts none again: the failure on the new head gets the one stop comment", async () => {
    const config = 'implement:\n  ciFix:\n    rounds: 1\n    branches: ["renovate/**"]\n';
    const stack = await startStack(FIX, { files: { "greet.txt": "hello\n" } });
    const sha = await renovateBranch(stack);
    mockInstallationToken();
    mockBotUser();
    mockRepoConfig({ repo: config }); // the trigger's read, remembered for the second suite
    mockRound(sha, 9710, [], config);
    expect((await stack.runToEnd("check_suite", suite(stack, 9710, sha), "renovate-round")).outcome).toMatch(/^✅ Done/);

    const rebased = renovateRebases(stack);
    let stop = "";
    nock(API).get(`${REPO_PATH}/pulls/2`).times(2).reply(200, renovatePull(rebased));
    mockRepoConfig({ repo: config });
    mockHeadCheckSuites(rebased, [checkSuite({ id: 9720, headSha: rebased, app: CI })]);
    mockSuiteCheckRuns(9720, [checkRun({ id: 9721, name: "test", app: CI })]);
    nock(API).post(`${REPO_PATH}/issues/2/comments`, (b) => ((stop = b.body), true)).reply(201, { id: 9722 });
    const job = await stack.runToEnd("check_suite", suite(stack, 9720, rebased), "renovate-stop");

    expect(job.outcome).toBe("⏸ Stopped: the checks still fail after 1 automatic fix round");
    expect(stop).toBe(
      [
        "⏸ Stopped: the checks still fail after 1 automatic fix round (`implement.ciFix.rounds`).",
        "",
        `Failing on ${rebased.slice(0, 7)}: \`test\`. crewbot will not try again on its own on this pull request; comment \`/implement <what to change>\` to have it work on the branch again.`,
        "",
        `<!-- crewbot:job:${job.id} -->`,
      ].join("\n"),
    );
    expect(gitSync(stack.remoteDir, "rev-parse", RENOVATE_BRANCH).trim()).toBe(rebased);
    expect(stack.fake.requests).toHaveLength(2);
    expect(await stack.crewbot.services.records.ciFixRounds.get("codertocat/hello-world", 2)).toEqual({ rounds: 1, stopped: true });
  });

  it("a rebase while the worker runs: nothing is pushed over Renovate's branch, and the comment says why", async () => {
    let rebased = "";
    const stack: Stack = await startStack(
      (_request, index) => {
        if (index === 1) rebased = renovateRebases(stack); // Renovate force-pushes before the worker is done
        return FIX[index];
      },
      { files: { "greet.txt": "hello\n" } },
    );
    const sha = await renovateBranch(stack);
    const edits = mockListedRound(sha, 9730);

    const job = await stack.runToEnd("check_suite", suite(stack, 9730, sha), "renovate-rebase");

    expect(gitSync(stack.remoteDir, "rev-parse", RENOVATE_BRANCH).trim()).toBe(rebased);
    expect(job.outcome).toMatch(/^❌ Failed: pushing to renovate\/lodash-4\.x was rejected: the branch has commits crewbot does not have \(crewbot never force-pushes\) · /);
    expect(figures(edits.at(-1)!, job.id)).toBe(refusedComment("pushing to renovate/lodash-4.x was rejected: the branch has commits crewbot does not have (crewbot never force-pushes)", sha));
    // Nothing reached the branch: the round is given back for the rebased head.
    expect(await stack.crewbot.services.records.ciFixRounds.get("codertocat/hello-world", 2)).toEqual({ rounds: 0, stopped: false });
  });

  it("a rebase whose suite fails while a round runs: the round stops and pushes nothing, the next one fixes the rebased head", async () => {
    // The first round's model answers late: long enough for Renovate to rebase and its CI to fail again.
    const stack = await startStack([{ delay: 20_000, text: "never read" }, ...FIX], { files: { "greet.txt": "hello\n" } });
    const sha = await renovateBranch(stack);
    mockInstallationToken();
    mockBotUser();
    mockRepoConfig({ repo: LISTED }); // the trigger's read, remembered for the second suite
    const first: string[] = [];
    nock(API).get(`${REPO_PATH}/pulls/2`).times(2).reply(200, renovatePull(sha));
    mockHeadCheckSuites(sha, [checkSuite({ id: 9750, headSha: sha, app: CI })]);
    mockSuiteCheckRuns(9750, [checkRun({ id: 9751, name: "test", app: CI, output: { title: "failed" } })]);
    nock(API).get(`${REPO_PATH}/collaborators/renovate%5Bbot%5D/permission`).reply(404, { message: "Not Found" });
    mockJobComments({ progressId: 9752, edits: first, number: 2, pull: {}, config: { repo: LISTED } });
    await stack.probot.receive({ id: "renovate-running", name: "check_suite", payload: suite(stack, 9750, sha) } as never);
    const [running] = await stack.crewbot.queue.listRecent();
    for (let i = 0; i < 200 && stack.fake.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(stack.fake.requests).toHaveLength(1);

    const rebased = renovateRebases(stack);
    const second: string[] = [];
    nock(API).get(`${REPO_PATH}/pulls/2`).times(2).reply(200, renovatePull(rebased));
    mockHeadCheckSuites(rebased, [checkSuite({ id: 9760, headSha: rebased, app: CI })]);
    mockSuiteCheckRuns(9760, [checkRun({ id: 9761, name: "test", app: CI, output: { title: "failed" } })]);
    nock(API).get(`${REPO_PATH}/collaborators/renovate%5Bbot%5D/permission`).optionally().reply(404, { message: "Not Found" });
    mockJobComments({ progressId: 9762, edits: second, number: 2, pull: {}, config: { repo: LISTED } });
    const newer = await stack.runToEnd("check_suite", suite(stack, 9760, rebased), "renovate-rebased");
    const stopped = await stack.waitFor(running!.id);

    expect(stopped.state).toBe("cancelled");
    expect(first.at(-1)).toMatch(new RegExp(`^⏹ Cancelled: a newer check suite took over \\(job ${newer.id}\\)`));
    expect(newer.outcome).toMatch(/^✅ Done/);
    expect(second.at(-1)).toContain(`Automatic fix, round 1 of 2: the check that failed on ${rebased.slice(0, 7)}: \`test\``);
    // Only the second round's commit, on top of Renovate's rebased one.
    expect(gitSync(stack.remoteDir, "log", "-1", "--format=%P|%an", RENOVATE_BRANCH)).toBe(`${rebased}|crewbot[bot]\n`);
    expect(await stack.crewbot.services.records.ciFixRounds.get("codertocat/hello-world", 2)).toEqual({ rounds: 1, stopped: false });
  }, 60_000);

  it("a branch rule that refuses crewbot's push is told in the comment, and the commits are kept", async () => {
    const stack = await startStack(FIX, { files: { "greet.txt": "hello\n" } });
    const sha = await renovateBranch(stack);
    const hook = path.join(stack.remoteDir, ".git", "hooks", "pre-receive");
    await writeFile(
      hook,
      [
        "#!/bin/sh",
        `echo "error: GH006: Protected branch update failed for refs/heads/${RENOVATE_BRANCH}." >&2`,
        'echo "error: Cannot update this protected ref." >&2',
        "exit 1",
        "",
      ].join("\n"),
    );
    await chmod(hook, 0o755);
    const edits = mockListedRound(sha, 9740);

    const job = await stack.runToEnd("check_suite", suite(stack, 9740, sha), "renovate-protected");

    expect(gitSync(stack.remoteDir, "rev-parse", RENOVATE_BRANCH).trim()).toBe(sha);
    expect(job.outcome).toMatch(/^❌ Failed: pushing to renovate\/lodash-4\.x was refused by a branch rule \(GH006\): “Cannot update this protected ref”; ask a repository admin to exclude the branch `renovate\/lodash-4\.x` from the rule/);
    expect(figures(edits.at(-1)!, job.id)).toBe(
      refusedComment(
        "pushing to renovate/lodash-4.x was refused by a branch rule (GH006): “Cannot update this protected ref”; ask a repository admin to exclude the branch `renovate/lodash-4.x` from the rule, or to add the app to the rule's bypass list (Settings → Rules)",
        sha,
      ),
    );
  });
});

describe("a Renovate pull request whose branch the config does not list", () => {
  it.each<[string, Parameters<typeof mockRepoConfig>[0]]>([
    ["no config", {}],
    ["only Dependabot's branches", { repo: 'implement:\n  ciFix:\n    branches: ["dependabot/**"]\n' }],
    ["a config that cannot be read", { repo: "implement:\n  ciFix:\n    branches: renovate\n" }],
  ])("%s: the config is read once for two suites; no job, no other request", async (_what, config) => {
    const stack = await startStack([], { runner: false });
    const sha = "e".repeat(40);
    mockInstallationToken();
    mockRepoConfig(config);
    await stack.probot.receive({ id: "unlisted-1", name: "check_suite", payload: suite(stack, 9800, sha) } as never);
    await stack.probot.receive({ id: "unlisted-2", name: "check_suite", payload: suite(stack, 9801, sha) } as never);
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);
  });

  it("a fork's suite on a branch named like Renovate's starts nothing and reads nothing", async () => {
    const stack = await startStack([], { runner: false });
    const payload = checkSuiteCompleted({ suiteId: 9810, headSha: "e".repeat(40), headBranch: RENOVATE_BRANCH, fork: true });
    await stack.probot.receive({ id: "fork-1", name: "check_suite", payload } as never);
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);
  });

  it("a branch taken off the list after the trigger read it: the job reads the config again and ends quietly", async () => {
    const stack = await startStack([]);
    const sha = await renovateBranch(stack);
    mockInstallationToken();
    mockRepoConfig({ repo: LISTED }); // the trigger's read
    nock(API).get(`${REPO_PATH}/pulls/2`).times(2).reply(200, renovatePull(sha));
    mockRepoConfig({ repo: "implement:\n  ciFix:\n    rounds: 2\n" }); // the job's read: no branches any more
    const job = await stack.runToEnd("check_suite", suite(stack, 9830, sha), "unlisted-later");
    expect(job.state).toBe("cancelled");
    expect(job.outcome).toBe("⏹ Cancelled: branch renovate/lodash-4.x is not one of crewbot's (implement.ciFix.branches names none)");
    expect(stack.fake.requests).toEqual([]);
    expect(await stack.crewbot.services.records.ciFixRounds.get("codertocat/hello-world", 2)).toBeUndefined();
  });

  it("a pull request from a fork, though the suite's branch is listed: no job", async () => {
    const stack = await startStack([], { runner: false });
    const sha = "e".repeat(40);
    mockInstallationToken();
    mockRepoConfig({ repo: LISTED });
    nock(API).get(`${REPO_PATH}/pulls/2`).reply(200, renovatePull(sha, { headRepo: "mallory/Hello-World" }));
    await stack.probot.receive({ id: "fork-2", name: "check_suite", payload: suite(stack, 9820, sha) } as never);
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);
  });
});

/** The final comment of a round whose push GitHub refused. */
const refusedComment = (reason: string, sha: string) =>
  [
    `❌ Failed: ${reason} · FIGURES`,
    "<!-- crewbot:job:JOB -->",
    "",
    "[Transcript](https://crewbot.example.com/jobs/JOB)",
    "",
    "**Notes**",
    `- Automatic fix, round 1 of 2: the check that failed on ${sha.slice(0, 7)}: \`test\``,
    "- The commit is kept in this job's artifacts: https://crewbot.example.com/jobs/JOB/artifacts/commits.patch (apply with `git am`)",
  ].join("\n");

/** The final comment with its job id and figures (duration, tokens, cost) replaced. */
const figures = (body: string, jobId: string) => normalise(body.replace(/^(✅ Done|❌ Failed: .*?) · \d.*$/m, "$1 · FIGURES"), jobId);
