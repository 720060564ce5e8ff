/**
 * End to end: one round per head, whatever the timing. A waiting round looks at the head's suites
 * again just as the last suite's webhook comes in: the newer job is queued behind the running one,
 * which is flagged as replaced. With an instant model the older round reaches its push long before
 * its next heartbeat would stop it; it must push nothing and give its round back, and the newer
 * round fixes the head. A round that did push owns its head: a later job on that head (GitHub's
 * pull request still shows it) runs no second round. A refused push gives its round back.
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
const done = (what: string) => ({ text: `## Completed\n${what}\n## Files Changed\n- greet.txt\n## Notes\nNone.` });
/** Each round's worker answers at once: a write, then its report. */
const FIXES = [
  { content: [use("write", { path: "greet.txt", content: "older round\n" })] },
  done("The older round."),
  { content: [use("write", { path: "greet.txt", content: "newer round\n" })] },
  done("The newer round."),
];
/** A heartbeat far slower than a round with an instant model: only the round's own checks can stop it in time. */
const SLOW_BEAT = { lease: { leaseMs: 120_000, heartbeatMs: 60_000 } };
/** 1.2 s: the waiting round looks again soon. */
const CONFIG = { repo: "implement:\n  ciFix: { waitMinutes: 0.02 }\n" };
const TEST = { suite: 9901, run: 91, name: "test" };
const LINT = { suite: 9902, run: 92, name: "lint" };

function failedRuns(w: typeof TEST) {
  nock(API).get(`${REPO_PATH}/actions/jobs/${w.run}/logs`).reply(200, `##[error]${w.name} exited with 1\n`, { "content-type": "text/plain" });
  mockSuiteCheckRuns(w.suite, [checkRun({ id: w.run, name: w.name, output: { title: `${w.name} failed`, summary: `${w.name}: 1 error`, annotations_count: 0 } })]);
}

/** A round's own traffic once it runs: its comment, the conversation, the failures of `suites`. */
function mockRound(progressId: number, edits: string[], suites: Array<typeof TEST>) {
  nock(API).get(`${REPO_PATH}/collaborators/crewbot%5Bbot%5D/permission`).optionally().reply(404, { message: "Not Found" });
  mockJobComments({ progressId, edits, number: 2, pull: {}, config: false });
  for (const w of suites) failedRuns(w);
}

async function receive(stack: Stack, w: typeof TEST, sha: string) {
  nock(API).get(`${REPO_PATH}/pulls/2`).reply(200, pull(sha)); // the trigger checks the pull request
  await stack.probot.receive({ id: `suite-${w.suite}`, name: "check_suite", payload: checkSuiteCompleted({ suiteId: w.suite, headSha: sha, headBranch: BRANCH, cloneUrl: stack.cloneUrl }) } as never);
  const [newest] = await stack.crewbot.queue.listRecent({ limit: 1 });
  return newest!;
}

/** The job's look at the pull request and its head: the config, the pull request (as GitHub shows it), the head's suites. */
function mockLook(sha: string, suites: unknown[]) {
  mockRepoConfig(CONFIG);
  nock(API).get(`${REPO_PATH}/pulls/2`).reply(200, pull(sha));
  mockHeadCheckSuites(sha, suites);
}

/** A point the app waits at until the test opens it; `arrived` says the app got there. */
function gate() {
  let arrive!: () => void;
  const arrived = new Promise<void>((r) => (arrive = r));
  let open!: () => void;
  const atGate = new Promise<void>((r) => (open = r));
  return { arrive, arrived, atGate, open };
}

/** lint's webhook while the older job runs: its job is queued behind it, and the older one is flagged as replaced. */
async function lintComesIn(stack: Stack, olderId: string, sha: string) {
  expect((await stack.crewbot.queue.get(olderId))?.state).toBe("running");
  const newer = await receive(stack, LINT, sha);
  expect(await stack.crewbot.queue.get(olderId)).toMatchObject({ state: "running", supersededBy: newer.id });
  return newer;
}

const bothFailed = (sha: string) => [checkSuite({ id: TEST.suite, headSha: sha }), checkSuite({ id: LINT.suite, headSha: sha })];
const commitsOn = (stack: Stack, sha: string) => gitSync(stack.remoteDir, "log", "--format=%s", `${sha}..${BRANCH}`);

describe("one ci-fix round per head", () => {
  it("the waiting round's look again lands with the last suite's webhook: the older job takes no round and writes nothing; the newer one fixes the head", async () => {
    const stack = await startStack((_request, index) => FIXES[index + 2]!, { files: { "greet.txt": "hello\n" }, ...SLOW_BEAT });
    const sha = await crewbotBranch(stack);
    mockInstallationToken();
    mockBotUser();

    // test failed, lint still runs: the round waits.
    mockLook(sha, [checkSuite({ id: TEST.suite, headSha: sha }), checkSuite({ id: LINT.suite, headSha: sha, status: "in_progress" })]);
    const older = await receive(stack, TEST, sha);
    await vi.waitFor(async () => expect((await stack.crewbot.queue.get(older.id))?.outcome ?? "").toMatch(/^⏳ Waiting/), { timeout: 15_000, interval: 50 });

    // Its look again is held at the head's suites until lint's webhook has come in.
    const { arrive, arrived, atGate, open } = gate();
    mockRepoConfig(CONFIG);
    nock(API).get(`${REPO_PATH}/pulls/2`).reply(200, pull(sha));
    nock(API)
      .get(`${REPO_PATH}/commits/${sha}/check-suites`)
      .query(true)
      .reply(200, (_uri, _body, cb) => {
        arrive();
        void atGate.then(() => cb(null, { total_count: 2, check_suites: bothFailed(sha) }));
      });
    await arrived;
    const newer = await lintComesIn(stack, older.id, sha);
    const newerEdits: string[] = [];
    mockLook(sha, bothFailed(sha));
    mockRound(802, newerEdits, [TEST, LINT]);
    open();

    const olderEnded = await stack.waitFor(older.id);
    const newerEnded = await stack.waitFor(newer.id);
    await stack.crewbot.background.idle();

    expect(olderEnded).toMatchObject({ state: "cancelled", outcome: `⏹ Superseded by job ${newer.id}` });
    expect(newerEnded.outcome).toMatch(/^✅ Done/);
    expect(newerEdits.at(-1)).toContain(`Automatic fix, round 1 of 2: the checks that failed on ${sha.slice(0, 7)}: \`test\`, \`lint\``);
    expect(stack.fake.requests).toHaveLength(2); // the newer round's worker only
    expect(commitsOn(stack, sha)).toBe("Fix failing checks: test, lint\n");
    expect(gitSync(stack.remoteDir, "show", `${BRANCH}:greet.txt`)).toBe("newer round\n");
    expect(await stack.crewbot.services.records.ciFixRounds.get("codertocat/hello-world", 2)).toEqual({ rounds: 1, stopped: false });
  }, 60_000);

  it("the last suite's webhook while the older round's instant worker runs: the older round pushes nothing and gives its round back; the newer one fixes the head", async () => {
    const { arrive, arrived, atGate, open } = gate();
    const stack = await startStack(
      async (_request, index) => {
        if (index === 1) {
          // The older worker's last answer waits until lint's job is queued behind it.
          arrive();
          await atGate;
        }
        return FIXES[index]!;
      },
      { files: { "greet.txt": "hello\n" }, ...SLOW_BEAT },
    );
    const sha = await crewbotBranch(stack);
    mockInstallationToken();
    mockBotUser();
    const olderEdits: string[] = [];
    mockLook(sha, [checkSuite({ id: TEST.suite, headSha: sha })]);
    mockRound(801, olderEdits, [TEST]);
    const older = await receive(stack, TEST, sha);
    await arrived;

    const newer = await lintComesIn(stack, older.id, sha);
    const newerEdits: string[] = [];
    mockLook(sha, bothFailed(sha)); // GitHub still shows the head the suites ran on
    mockRound(802, newerEdits, [TEST, LINT]);
    open();

    const olderEnded = await stack.waitFor(older.id);
    const newerEnded = await stack.waitFor(newer.id);
    await stack.crewbot.background.idle();

    expect(olderEnded.state).toBe("cancelled");
    expect(olderEdits.at(-1)).toMatch(new RegExp(`^⏹ Cancelled: a newer check suite took over \\(job ${newer.id}\\)`));
    expect(newerEnded.outcome).toMatch(/^✅ Done/);
    expect(newerEdits.at(-1)).toContain(`Automatic fix, round 1 of 2: the checks that failed on ${sha.slice(0, 7)}: \`test\`, \`lint\``);
    // One push on the head: the newer round's.
    expect(commitsOn(stack, sha)).toBe("Fix failing checks: test, lint\n");
    expect(gitSync(stack.remoteDir, "show", `${BRANCH}:greet.txt`)).toBe("newer round\n");
    expect(await stack.crewbot.services.records.ciFixRounds.get("codertocat/hello-world", 2)).toEqual({ rounds: 1, stopped: false });
  }, 60_000);

  it("a round that pushed owns its head: a later suite's job on that head, while GitHub still shows it, runs no second round and writes nothing", async () => {
    const stack = await startStack((_request, index) => FIXES[index]!, { files: { "greet.txt": "hello\n" }, ...SLOW_BEAT });
    const sha = await crewbotBranch(stack);
    mockInstallationToken();
    mockBotUser();
    const edits: string[] = [];
    mockLook(sha, [checkSuite({ id: TEST.suite, headSha: sha })]);
    mockRound(811, edits, [TEST]);
    const first = await receive(stack, TEST, sha);
    expect((await stack.waitFor(first.id)).outcome).toMatch(/^✅ Done/);
    const pushed = gitSync(stack.remoteDir, "rev-parse", BRANCH).trim();

    // lint's webhook on the old head; GitHub's pull request has not caught up with the push yet.
    mockLook(sha, bothFailed(sha));
    const second = await receive(stack, LINT, sha);
    const ended = await stack.waitFor(second.id);
    await stack.crewbot.background.idle();

    expect(ended).toMatchObject({ state: "cancelled", outcome: `⏹ Cancelled: round 1 already ran on ${sha.slice(0, 7)}` });
    expect(stack.fake.requests).toHaveLength(2); // the first round's worker only
    expect(gitSync(stack.remoteDir, "rev-parse", BRANCH).trim()).toBe(pushed);
    expect(await stack.crewbot.services.records.ciFixRounds.get("codertocat/hello-world", 2)).toEqual({ rounds: 1, stopped: false });
  }, 60_000);

  it("a push GitHub refuses (someone pushed to the branch meanwhile) gives the round back", async () => {
    let moved = "";
    const stack: Stack = await startStack(
      (_request, index) => {
        if (index === 1) {
          // A person pushes to the branch while the worker runs; GitHub's pull request still shows the old head.
          moved = gitSync(stack.remoteDir, "commit-tree", `${BRANCH}^{tree}`, "-p", BRANCH, "-m", "by hand").trim();
          gitSync(stack.remoteDir, "update-ref", `refs/heads/${BRANCH}`, moved);
        }
        return FIXES[index]!;
      },
      { files: { "greet.txt": "hello\n" }, ...SLOW_BEAT },
    );
    const sha = await crewbotBranch(stack);
    mockInstallationToken();
    mockBotUser();
    const edits: string[] = [];
    mockLook(sha, [checkSuite({ id: TEST.suite, headSha: sha })]);
    mockRound(821, edits, [TEST]);
    const job = await receive(stack, TEST, sha);
    const ended = await stack.waitFor(job.id);

    expect(ended.outcome).toMatch(/^❌ Failed: pushing to crewbot\/issue-1-greet was rejected: the branch has commits crewbot does not have/);
    expect(gitSync(stack.remoteDir, "rev-parse", BRANCH).trim()).toBe(moved);
    expect(await stack.crewbot.services.records.ciFixRounds.get("codertocat/hello-world", 2)).toEqual({ rounds: 0, stopped: false });
  }, 60_000);
});
