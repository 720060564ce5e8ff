/**
 * End to end: a ci-fix round covers the head, not one suite. GitHub Actions makes one check suite
 * per workflow, so test, lint and build fail in three suites minutes apart: the round waits while the
 * head's other suites run, each later failure replaces the waiting round, and one round fixes all
 * three. The wait is bounded (`implement.ciFix.waitMinutes`), and a round a later suite stops pushes
 * nothing of its half-done tree.
 */
import nock from "nock";
import { describe, expect, it, vi } from "vitest";
import { checkSuiteCompleted } from "../fixtures/check-suite.js";
import { checkRun, checkSuite, mockHeadCheckSuites, mockSuiteCheckRuns } from "../helpers/check-runs.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { BRANCH, crewbotBranch, pull } from "./ci-fix-harness.js";
import { API, mockBotUser, mockInstallationToken, mockJobComments, mockRepoConfig, REPO_PATH, startStack, type Stack } from "./harness.js";

useNock();

const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });
const DONE = { text: "## Completed\nFixed the three checks.\n## Files Changed\n- greet.txt\n## Notes\nNone." };
const WORKFLOWS = [
  { suite: 9701, run: 71, name: "test" },
  { suite: 9702, run: 72, name: "lint" },
  { suite: 9703, run: 73, name: "build" },
];
/** A workflow's failed job, and its log (GitHub may serve it itself rather than redirect). */
function failedRun(w: (typeof WORKFLOWS)[number]) {
  nock(API).get(`${REPO_PATH}/actions/jobs/${w.run}/logs`).reply(200, `##[error]${w.name} exited with 1\n`, { "content-type": "text/plain" });
  return [checkRun({ id: w.run, name: w.name, output: { title: `${w.name} failed`, summary: `${w.name}: 1 error`, annotations_count: 0 } })];
}

/** The head's three suites, the first `failed` of them failed and the rest still running. */
function suitesAt(sha: string, failed: number) {
  return WORKFLOWS.map((w, i) => checkSuite({ id: w.suite, headSha: sha, ...(i < failed ? {} : { status: i === failed ? "in_progress" : "queued" }) }));
}

/** One run of a ci-fix job up to its decision: the config, the pull request and the head's suites. */
function mockLook(sha: string, suites: unknown[], config: { repo?: string } = {}) {
  mockRepoConfig(config);
  nock(API).get(`${REPO_PATH}/pulls/2`).reply(200, pull(sha));
  mockHeadCheckSuites(sha, suites);
}

async function receive(stack: Stack, w: (typeof WORKFLOWS)[number], sha: string) {
  nock(API).get(`${REPO_PATH}/pulls/2`).reply(200, pull(sha)); // the trigger checks the pull request
  await stack.probot.receive({ id: `suite-${w.suite}`, name: "check_suite", payload: checkSuiteCompleted({ suiteId: w.suite, headSha: sha, headBranch: BRANCH, cloneUrl: stack.cloneUrl }) } as never);
  const [newest] = await stack.crewbot.queue.listRecent({ limit: 1 });
  return newest!;
}

const waiting = (stack: Stack, id: string) =>
  vi.waitFor(async () => {
    const job = await stack.crewbot.queue.get(id);
    expect(job?.outcome ?? "").toMatch(/^⏳ Waiting/);
    return job!;
  }, { timeout: 15_000, interval: 50 });

describe("a ci-fix round covers the head", () => {
  it("three workflows failing one after another: the round waits, each failure replaces it, and one round fixes all three", async () => {
    const stack = await startStack([{ content: [use("write", { path: "greet.txt", content: "hi\n" })] }, DONE], { files: { "greet.txt": "hello\n" } });
    const sha = await crewbotBranch(stack);
    mockInstallationToken();
    mockBotUser();

    // test fails; lint and build still run: the round waits, taking no round and writing nothing.
    mockLook(sha, suitesAt(sha, 1));
    const first = await receive(stack, WORKFLOWS[0]!, sha);
    const firstWait = await waiting(stack, first.id);
    expect(firstWait.state).toBe("queued");
    expect(firstWait.outcome).toMatch(new RegExp(`^⏳ Waiting for 2 more check suites of ${sha.slice(0, 7)} \\(github-actions\\) to finish, until \\d\\d:\\d\\d UTC at most$`));
    expect(firstWait.runAt).toBeGreaterThan(Date.now() + 20_000);
    expect(await stack.crewbot.services.records.ciFixRounds.get("codertocat/hello-world", 2)).toBeUndefined();

    // lint fails: its job replaces the waiting one, which ends without a word on GitHub; build still runs.
    mockLook(sha, suitesAt(sha, 2));
    const second = await receive(stack, WORKFLOWS[1]!, sha);
    expect((await stack.crewbot.queue.get(first.id))).toMatchObject({ state: "cancelled", outcome: `⏹ Superseded by job ${second.id}` });
    expect((await waiting(stack, second.id)).outcome).toMatch(/^⏳ Waiting for 1 more check suite of/);

    // build fails: nothing runs any more, and this round reads all three suites.
    const edits: string[] = [];
    mockLook(sha, suitesAt(sha, 3), { repo: undefined });
    nock(API).get(`${REPO_PATH}/collaborators/crewbot%5Bbot%5D/permission`).optionally().reply(404, { message: "Not Found" });
    mockJobComments({ progressId: 701, edits, number: 2, pull: {}, config: false });
    for (const w of WORKFLOWS) mockSuiteCheckRuns(w.suite, failedRun(w));
    const third = await receive(stack, WORKFLOWS[2]!, sha);
    const ended = await stack.waitFor(third.id);

    expect(ended.outcome).toMatch(/^✅ Done/);
    expect(await stack.crewbot.queue.get(second.id)).toMatchObject({ state: "cancelled", outcome: `⏹ Superseded by job ${third.id}` });
    expect(stack.fake.requests).toHaveLength(2); // one conversation: the worker's two turns
    const prompt = JSON.stringify(stack.fake.requests[0]!.body.messages);
    for (const w of WORKFLOWS) expect(prompt).toContain(`${w.name}: 1 error`);
    expect(edits.at(-1)).toContain(`Automatic fix, round 1 of 2: the checks that failed on ${sha.slice(0, 7)}: \`test\`, \`lint\`, \`build\``);
    expect(gitSync(stack.remoteDir, "show", `${BRANCH}:greet.txt`)).toBe("hi\n");
    expect(await stack.crewbot.services.records.ciFixRounds.get("codertocat/hello-world", 2)).toEqual({ rounds: 1, stopped: false });
  }, 60_000);

  it("waits no longer than implement.ciFix.waitMinutes, then fixes what failed and says what it did not wait for", async () => {
    const stack = await startStack([{ content: [use("write", { path: "greet.txt", content: "hi\n" })] }, DONE], { files: { "greet.txt": "hello\n" } });
    const sha = await crewbotBranch(stack);
    mockInstallationToken();
    mockBotUser();
    const config = { repo: "implement:\n  ciFix: { waitMinutes: 0.02 }\n" }; // 1.2 s
    const stillRunning = [checkSuite({ id: 9701, headSha: sha }), checkSuite({ id: 9702, headSha: sha, status: "in_progress", app: { id: 40, slug: "slow-ci" } })];
    mockLook(sha, stillRunning, config);
    const job = await receive(stack, WORKFLOWS[0]!, sha);
    await waiting(stack, job.id);

    // Its time is up: it runs again, with the one failed suite.
    const edits: string[] = [];
    mockLook(sha, stillRunning, config);
    nock(API).get(`${REPO_PATH}/collaborators/crewbot%5Bbot%5D/permission`).optionally().reply(404, { message: "Not Found" });
    mockJobComments({ progressId: 702, edits, number: 2, pull: {}, config: false });
    mockSuiteCheckRuns(9701, failedRun(WORKFLOWS[0]!));
    const ended = await stack.waitFor(job.id);

    expect(ended.outcome).toMatch(/^✅ Done/);
    expect(edits.at(-1)).toContain("Automatic fix, round 1 of 2: the check that failed on");
    expect(edits.at(-1)).toContain("Not waited for: 1 check suite (slow-ci) still running after 0.02 minutes (`implement.ciFix.waitMinutes`); the next push runs them again");
  }, 60_000);

  it("a round a later suite stops pushes nothing of what it changed, and gives its round back", async () => {
    // Round one writes a file, then its model answers late: long enough for the later suite to come in.
    const stack = await startStack(
      [{ content: [use("write", { path: "greet.txt", content: "half done\n" })] }, { delay: 20_000, text: "never read" }, { content: [use("write", { path: "greet.txt", content: "hi\n" })] }, DONE],
      { files: { "greet.txt": "hello\n" } },
    );
    const sha = await crewbotBranch(stack);
    mockInstallationToken();
    mockBotUser();
    nock(API).get(`${REPO_PATH}/collaborators/crewbot%5Bbot%5D/permission`).optionally().times(2).reply(404, { message: "Not Found" });
    const first: string[] = [];
    mockLook(sha, suitesAt(sha, 1).slice(0, 1), { repo: undefined });
    mockJobComments({ progressId: 711, edits: first, number: 2, pull: {}, config: false });
    mockSuiteCheckRuns(9701, failedRun(WORKFLOWS[0]!));
    const running = await receive(stack, WORKFLOWS[0]!, sha);
    await vi.waitFor(() => expect(stack.fake.requests).toHaveLength(2), { timeout: 15_000, interval: 50 });

    const second: string[] = [];
    mockLook(sha, suitesAt(sha, 2).slice(0, 2), { repo: undefined });
    mockJobComments({ progressId: 712, edits: second, number: 2, pull: {}, config: false });
    for (const w of WORKFLOWS.slice(0, 2)) mockSuiteCheckRuns(w.suite, failedRun(w));
    const newer = await receive(stack, WORKFLOWS[1]!, sha);
    const stopped = await stack.waitFor(running.id);
    const done = await stack.waitFor(newer.id);

    expect(stopped.state).toBe("cancelled");
    expect(first.at(-1)).toMatch(new RegExp(`^⏹ Cancelled: a newer check suite took over \\(job ${newer.id}\\)`));
    expect(done.outcome).toMatch(/^✅ Done/);
    // The branch has the newer round's one commit on the old head, never the half-done tree.
    expect(gitSync(stack.remoteDir, "rev-list", "--count", `${sha}..${BRANCH}`).trim()).toBe("1");
    expect(gitSync(stack.remoteDir, "log", "--format=%s", `${sha}..${BRANCH}`)).toBe("Fix failing checks: test, lint\n");
    expect(gitSync(stack.remoteDir, "show", `${BRANCH}:greet.txt`)).toBe("hi\n");
    expect(await stack.crewbot.services.records.ciFixRounds.get("codertocat/hello-world", 2)).toEqual({ rounds: 1, stopped: false });
  }, 60_000);
});
