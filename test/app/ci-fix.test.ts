/**
 * End to end: a failed check suite on crewbot's own pull request → a ci-fix job whose worker reads
 * the failing check, its annotation and its log, and pushes a fix to the PR's branch; round 2 on
 * the next failure; then one "stopping" comment and no job. Suites that are not crewbot's business
 * start nothing and write nothing; a push while a ci-fix waits supersedes it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import nock from "nock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkSuiteCompleted } from "../fixtures/check-suite.js";
import { pullRequestEvent } from "../fixtures/payloads.js";
import { checkRun, checkSuite, mockAnnotations, mockHeadCheckSuites, mockJobLogRedirect, mockSuiteCheckRuns } from "../helpers/check-runs.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { BRANCH, crewbotBranch, pull } from "./ci-fix-harness.js";
import { API, CONFIG_URL_PATH, mockBotUser, mockInstallationToken, mockJobComments, mockRepoConfig, REPO_PATH, startStack, TOKEN } from "./harness.js";

useNock();

const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });
const DONE = { text: "## Completed\nFixed the greeting.\n## Files Changed\n- greet.txt\n## Notes\nNone." };

let logHost: { url: string; seen: IncomingHttpHeaders[]; server: Server };
beforeAll(async () => {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { "content-type": "text/plain" });
    if (req.url?.startsWith("/big")) return void serveBig(res);
    res.end(`2026-12-01T10:00:00.0000000Z ##[group]Run npm test\n2026-12-01T10:00:01.0000000Z \u001b[31mnot ok 1 - greets with hi (${req.url})\u001b[0m\n2026-12-01T10:00:02.0000000Z ##[error]Process completed with exit code 1.\n`);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  logHost = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
});
afterAll(() => new Promise<void>((r) => logHost.server.close(() => r())));

const BIG_LAST = "2026-12-01T10:09:59.0000000Z \u001b[1;31mFAIL\u001b[0m src/greet.test.ts > greets with hi\n2026-12-01T10:10:00.0000000Z ##[endgroup]\n";

/** A 50 MB log, written in pieces: colour codes, group markers and timestamps on every line, the failure at the end. */
function serveBig(res: import("node:http").ServerResponse) {
  const line = "2026-12-01T10:00:00.0000000Z ##[group]\u001b[36mstep\u001b[0m compiling 1234 of 99999\n";
  const block = line.repeat(Math.ceil(65536 / line.length));
  let left = 50 * 1024 * 1024 - BIG_LAST.length;
  const pump = () => {
    while (left > 0) {
      const piece = block.slice(0, Math.min(left, block.length));
      left -= piece.length;
      if (!res.write(piece)) return void res.once("drain", pump);
    }
    res.end(BIG_LAST);
  };
  pump();
}

/** A suite's failing test run: its output, one annotation, and its log behind GitHub's redirect. */
function mockFailingSuite(suiteId: number, runId: number) {
  mockSuiteCheckRuns(suiteId, [
    checkRun({ id: runId, name: "test (node 20)", output: { title: "1 failing test", summary: "greet.test.js: 1 failed", annotations_count: 1 } }),
    checkRun({ id: runId + 1, name: "lint", conclusion: "success" }),
  ]);
  mockAnnotations(runId, [{ path: "greet.txt", start_line: 1, end_line: 1, annotation_level: "failure", message: `expected "hi" but got "hello" (run ${runId})`, title: null, raw_details: null, blob_href: "", start_column: null, end_column: null }]);
  mockJobLogRedirect(runId, `${logHost.url}/job/${runId}?sig=s3cr3t`);
}

/** A round's own traffic: the PR read twice (trigger, job), the head's suites (`suiteId` failed), its comment, its conversation, the author's permission. */
function mockRound(sha: string, progressId: number, edits: string[], suiteId: number) {
  nock(API).get(`${REPO_PATH}/pulls/2`).times(2).reply(200, pull(sha));
  mockHeadCheckSuites(sha, [checkSuite({ id: suiteId, headSha: sha }), checkSuite({ id: suiteId + 50, headSha: sha, conclusion: "success" }), checkSuite({ id: suiteId + 51, headSha: sha, status: "queued", runs: 0, app: { id: 9, slug: "idle-app" } })]);
  nock(API).get(`${REPO_PATH}/collaborators/crewbot%5Bbot%5D/permission`).optionally().reply(404, { message: "Not Found" });
  mockJobComments({ progressId, edits, number: 2, pull: {} });
}

const promptOf = (body: any): string => JSON.stringify(body.messages);

describe("ci-fix on crewbot's own pull request", () => {
  it("fixes round 1 and round 2, then says once that it stops, and starts nothing after", async () => {
    const stack = await startStack(
      [
        { content: [use("write", { path: "greet.txt", content: "hi\n" })] },
        DONE,
        { content: [use("write", { path: "greet.txt", content: "hi!\n" })] },
        DONE,
      ],
      { files: { "greet.txt": "hello\n" } },
    );
    const sha1 = await crewbotBranch(stack);
    mockInstallationToken();
    mockBotUser();

    // Round 1.
    const edits1: string[] = [];
    mockRound(sha1, 301, edits1, 9001);
    mockFailingSuite(9001, 501);
    const seenBefore = logHost.seen.length;
    const job1 = await stack.runToEnd("check_suite", checkSuiteCompleted({ suiteId: 9001, headSha: sha1, headBranch: BRANCH, cloneUrl: stack.cloneUrl }), "suite-1");

    expect(job1.kind).toBe("ci-fix");
    expect(job1.outcome).toMatch(/^✅ Done/);
    expect(stack.fake.requests).toHaveLength(2);
    const prompt = promptOf(stack.fake.requests[0]!.body);
    expect(prompt).toContain("test (node 20)");
    expect(prompt).toContain('expected \\"hi\\" but got \\"hello\\" (run 501)');
    expect(prompt).toContain("not ok 1 - greets with hi");
    expect(prompt).toContain('trust=\\"third-party\\"');
    expect(prompt).not.toContain("\\u001b");
    expect(prompt).not.toContain("##[group]");
    // The log's host got no token.
    expect(logHost.seen.slice(seenBefore).map((h) => h.authorization)).toEqual([undefined]);
    expect(JSON.stringify(logHost.seen)).not.toContain(TOKEN);
    const sha2 = gitSync(stack.remoteDir, "rev-parse", BRANCH).trim();
    expect(sha2).not.toBe(sha1);
    expect(gitSync(stack.remoteDir, "show", `${BRANCH}:greet.txt`)).toBe("hi\n");
    expect(gitSync(stack.remoteDir, "log", "-1", "--format=%an|%s", BRANCH)).toBe("crewbot[bot]|Fix failing checks: test (node 20)\n");
    expect(gitSync(stack.remoteDir, "log", "-1", "--format=%B", BRANCH)).not.toContain("Co-authored-by"); // no person asked for it
    expect(edits1.at(-1)).toMatch(/^✅ Done/);
    expect(edits1.at(-1)).toContain("Automatic fix, round 1 of 2: the check that failed on " + sha1.slice(0, 7) + ": `test (node 20)`");
    expect(edits1.at(-1)).toMatch(new RegExp(`Changed on \`${BRANCH}\` \\(${sha2.slice(0, 7)}\\): \`greet.txt\``));

    // Round 2, on the pushed head.
    gitSync(stack.remoteDir, "update-ref", "refs/pull/2/head", BRANCH);
    const edits2: string[] = [];
    mockRound(sha2, 302, edits2, 9002);
    mockFailingSuite(9002, 601);
    const job2 = await stack.runToEnd("check_suite", checkSuiteCompleted({ suiteId: 9002, headSha: sha2, headBranch: BRANCH, cloneUrl: stack.cloneUrl }), "suite-2");
    expect(job2.outcome).toMatch(/^✅ Done/);
    expect(promptOf(stack.fake.requests[2]!.body)).toContain("(run 601)");
    expect(edits2.at(-1)).toContain("Automatic fix, round 2 of 2");
    const sha3 = gitSync(stack.remoteDir, "rev-parse", BRANCH).trim();
    expect(gitSync(stack.remoteDir, "show", `${BRANCH}:greet.txt`)).toBe("hi!\n");

    // A third failure: one comment saying crewbot stops, no worker.
    let stop = "";
    nock(API).get(`${REPO_PATH}/pulls/2`).times(2).reply(200, pull(sha3));
    mockRepoConfig({});
    mockHeadCheckSuites(sha3, [checkSuite({ id: 9003, headSha: sha3 })]);
    mockSuiteCheckRuns(9003, [checkRun({ id: 701, name: "test (node 20)" })]);
    nock(API).post(`${REPO_PATH}/issues/2/comments`, (b) => ((stop = b.body), true)).reply(201, { id: 303 });
    const job3 = await stack.runToEnd("check_suite", checkSuiteCompleted({ suiteId: 9003, headSha: sha3, headBranch: BRANCH, cloneUrl: stack.cloneUrl }), "suite-3");
    expect(job3.outcome).toMatch(/^⏸ Stopped: the checks still fail after 2 automatic fix rounds/);
    expect(stop).toMatch(/^⏸ Stopped: the checks still fail after 2 automatic fix rounds/);
    expect(stop).toContain(`Failing on ${sha3.slice(0, 7)}: \`test (node 20)\``);
    expect(stop).toContain("/implement <what to change>");
    expect(stack.fake.requests).toHaveLength(4);

    // A fourth: said before, so nothing is written.
    nock(API).get(`${REPO_PATH}/pulls/2`).times(2).reply(200, pull(sha3));
    mockRepoConfig({});
    mockHeadCheckSuites(sha3, [checkSuite({ id: 9003, headSha: sha3 }), checkSuite({ id: 9004, headSha: sha3 })]);
    const job4 = await stack.runToEnd("check_suite", checkSuiteCompleted({ suiteId: 9004, headSha: sha3, headBranch: BRANCH, cloneUrl: stack.cloneUrl }), "suite-4");
    expect(job4.outcome).toMatch(/^⏹ Cancelled: no ci-fix rounds left/);
    expect(await stack.crewbot.services.records.ciFixRounds.get("codertocat/hello-world", 2)).toEqual({ rounds: 2, stopped: true });
  });

  it("runs implement-and-review from the worker on, with setup and check commands, like /implement", async () => {
    const stack = await startStack(
      [
        { content: [use("write", { path: "greet.txt", content: "hi\n" })] },
        DONE,
        { text: "## Summary\nThe fix is right." },
        { text: "## Completed\nNothing more: the review found nothing.\n## Files Changed\nNone.\n## Notes\nNone." },
      ],
      { files: { "greet.txt": "hello\n" } },
    );
    const sha = await crewbotBranch(stack);
    mockInstallationToken();
    mockBotUser();
    const edits: string[] = [];
    nock(API).get(`${REPO_PATH}/pulls/2`).times(2).reply(200, pull(sha));
    nock(API).get(`${REPO_PATH}/collaborators/crewbot%5Bbot%5D/permission`).optionally().reply(404, { message: "Not Found" });
    const config = 'implement:\n  chain: implement-and-review\n  setup: ["echo ready"]\n  check: ["grep -q hi greet.txt"]\n';
    mockJobComments({ progressId: 306, edits, number: 2, pull: {}, config: { repo: config } });
    mockHeadCheckSuites(sha, [checkSuite({ id: 9160, headSha: sha, app: { id: 5, slug: "other-ci" } }), checkSuite({ id: 9161, headSha: sha, app: { id: 1, slug: "crewbot" }, status: "in_progress" })]);
    mockSuiteCheckRuns(9160, [checkRun({ id: 161, name: "unit", app: { id: 5, slug: "other-ci" }, output: { summary: "greet failed" } })]);

    const job = await stack.runToEnd("check_suite", checkSuiteCompleted({ suiteId: 9160, headSha: sha, headBranch: BRANCH, cloneUrl: stack.cloneUrl, app: { id: 5, slug: "other-ci" } }), "suite-review");

    expect(job.outcome).toMatch(/^✅ Done/);
    // Worker, reviewer, worker: no scout, no planner.
    expect(stack.fake.requests).toHaveLength(4);
    expect(JSON.stringify(stack.fake.requests[2]!.body.messages)).toContain("+hi");
    expect(edits.at(-1)).toMatch(/## Setup\n✅ `echo ready` · exit code 0[\s\S]*## Checks\n✅ `grep -q hi greet.txt` · exit code 0/);
    expect(gitSync(stack.remoteDir, "show", `${BRANCH}:greet.txt`)).toBe("hi\n");
  });

  it("a failed suite that lists no failed run says so in its comment and uses no round", async () => {
    const stack = await startStack([]);
    const sha = await crewbotBranch(stack);
    mockInstallationToken();
    const edits: string[] = [];
    mockRound(sha, 305, edits, 9150);
    mockSuiteCheckRuns(9150, [checkRun({ id: 991, name: "lint", conclusion: "success" }), checkRun({ id: 992, name: "flaky", conclusion: "cancelled" })]);
    const job = await stack.runToEnd("check_suite", checkSuiteCompleted({ suiteId: 9150, headSha: sha, headBranch: BRANCH, cloneUrl: stack.cloneUrl }), "suite-empty");
    expect(job.outcome).toMatch(new RegExp(`^❌ Failed: the suite failed on ${sha.slice(0, 7)}, but GitHub lists no failed check run in it to fix`));
    expect(edits.at(-1)).toMatch(/^❌ Failed: the suite failed/);
    expect(stack.fake.requests).toEqual([]);
    expect(await stack.crewbot.services.records.ciFixRounds.get("codertocat/hello-world", 2)).toEqual({ rounds: 0, stopped: false });
  });

  it("with implement.ciFix.rounds: 0 runs nothing and writes nothing", async () => {
    const stack = await startStack([]);
    const sha = await crewbotBranch(stack);
    mockInstallationToken();
    nock(API).get(`${REPO_PATH}/pulls/2`).reply(200, pull(sha));
    mockRepoConfig({ repo: "implement:\n  ciFix: { rounds: 0 }\n" });
    const job = await stack.runToEnd("check_suite", checkSuiteCompleted({ suiteId: 9100, headSha: sha, headBranch: BRANCH, cloneUrl: stack.cloneUrl }), "suite-off");
    expect(job.outcome).toBe("⏹ Cancelled: automatic CI fixes are off (implement.ciFix.rounds: 0)");
    expect(stack.fake.requests).toEqual([]);
    expect(stack.git.requests).toEqual([]);
  });
});

describe("ci-fix with bad input", () => {
  it("a 50 MB log full of escape codes and group markers, an annotation on a missing file, a run without output, a refused log: the job runs with what could be read", async () => {
    const stack = await startStack([{ content: [use("write", { path: "greet.txt", content: "hi\n" })] }, DONE], { files: { "greet.txt": "hello\n" } });
    const sha = await crewbotBranch(stack);
    mockInstallationToken();
    mockBotUser();
    const edits: string[] = [];
    mockRound(sha, 401, edits, 9500);
    mockSuiteCheckRuns(9500, [
      checkRun({ id: 801, name: "build", output: { title: "Build failed", annotations_count: 1 } }),
      checkRun({ id: 802, name: "external-ci", app: { id: 4, slug: "external-ci" }, output: null }),
      checkRun({ id: 803, name: "e2e", output: { summary: "timed out", annotations_count: 0 }, conclusion: "timed_out" }),
    ]);
    mockAnnotations(801, [{ path: "src/missing.ts", start_line: 4, end_line: 4, annotation_level: "failure", message: "Cannot find name 'greet'.", title: null, raw_details: null, blob_href: "", start_column: null, end_column: null }]);
    mockJobLogRedirect(801, `${logHost.url}/big?sig=1`);
    nock(API).get(`${REPO_PATH}/actions/jobs/803/logs`).reply(403, { message: "Resource not accessible by integration" });

    const job = await stack.runToEnd("check_suite", checkSuiteCompleted({ suiteId: 9500, headSha: sha, headBranch: BRANCH, cloneUrl: stack.cloneUrl }), "suite-bad");

    expect(job.outcome).toMatch(/^✅ Done/);
    const prompt = promptOf(stack.fake.requests[0]!.body);
    expect(prompt).toContain("src/missing.ts:4 (this file is not in the checkout) [failure] Cannot find name 'greet'.");
    expect(prompt).toContain("(this check run has no output)");
    expect(prompt).toContain("FAIL src/greet.test.ts > greets with hi");
    expect(prompt).toContain("52,428,800 bytes");
    expect(prompt).toContain("its job's log could not be read (GitHub answered 403: Resource not accessible by integration; the app needs the actions: read permission");
    expect(prompt).not.toContain("\\u001b");
    expect(prompt).not.toContain("##[");
    expect(prompt.length).toBeLessThan(200_000);
    expect(edits.at(-1)).toContain("`e2e`: its job's log could not be read");
    expect(gitSync(stack.remoteDir, "show", `${BRANCH}:greet.txt`)).toBe("hi\n");
  }, 60_000);
});

describe("suites that are not crewbot's business", () => {
  const sha = "e".repeat(40);
  it.each<[string, Record<string, unknown>, ((s: typeof sha) => nock.Body) | "config" | undefined]>([
    ["a person's branch (only the config is read: it lists no branches)", { headBranch: "feature-x" }, "config"],
    ["a fork's pull request (GitHub lists none for it)", { headBranch: "crewbot/issue-1-greet", fork: true }, undefined],
    ["a green suite", { headBranch: BRANCH, conclusion: "success" }, undefined],
    ["a neutral suite", { headBranch: BRANCH, conclusion: "neutral" }, undefined],
    ["crewbot's own review suite", { headBranch: BRANCH, app: { id: 1, slug: "crewbot" } }, undefined],
    ["a closed pull request", { headBranch: BRANCH }, (s) => pull(s, { state: "closed" })],
    ["a pull request whose head moved on", { headBranch: BRANCH }, () => pull("f".repeat(40))],
    ["a pull request now from a fork", { headBranch: BRANCH }, (s) => pull(s, { headRepo: "mallory/Hello-World" })],
  ])("%s: no job, no GitHub write", async (_what, o, answer) => {
    const stack = await startStack([], { runner: false });
    if (answer === "config") {
      mockInstallationToken();
      mockRepoConfig({});
    } else if (answer) {
      mockInstallationToken();
      nock(API).get(`${REPO_PATH}/pulls/2`).reply(200, answer(sha));
    }
    await stack.probot.receive({ id: `ignored-${Math.random()}`, name: "check_suite", payload: checkSuiteCompleted({ suiteId: 9200, headSha: sha, headBranch: BRANCH, ...o }) } as never);
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);
  });
});

describe("a newer push or suite while a ci-fix waits", () => {
  it("a push to the branch supersedes it: it ends without running, and writes nothing", async () => {
    const stack = await startStack([], { runner: false });
    const sha = await crewbotBranch(stack);
    mockInstallationToken();
    nock(API).get(`${REPO_PATH}/pulls/2`).reply(200, pull(sha));
    await stack.probot.receive({ id: "wait-1", name: "check_suite", payload: checkSuiteCompleted({ suiteId: 9300, headSha: sha, headBranch: BRANCH, cloneUrl: stack.cloneUrl }) } as never);
    const pushed = "1".repeat(40);
    // The push's trigger and then the ci-fix job read the config; automatic reviews are off here, so the push queues no review.
    nock(API).get(`${REPO_PATH}${CONFIG_URL_PATH}`).times(2).reply(200, "review:\n  auto: false\n", { "content-type": "text/plain; charset=utf-8" });
    await stack.probot.receive({ id: "push-1", name: "pull_request", payload: pullRequestEvent("synchronize", { number: 2, headSha: pushed, headRef: BRANCH, cloneUrl: stack.cloneUrl }) } as never);
    const queued = await stack.crewbot.queue.listRecent({ state: "queued" });
    const ciFix = queued.find((j) => j.kind === "ci-fix");
    expect(ciFix).toBeDefined();
    expect(queued.find((j) => j.kind === "review")).toBeUndefined();

    nock(API).get(`${REPO_PATH}/pulls/2`).reply(200, pull(pushed));
    await stack.crewbot.runner.start();
    const ended = await stack.waitFor(ciFix!.id);
    await stack.crewbot.runner.stop({ drain: false, timeoutMs: 1000 });

    expect(ended.state).toBe("cancelled");
    expect(ended.outcome).toBe("⏹ Superseded: the branch moved on to 1111111 after the failed suite");
    expect(stack.fake.requests).toEqual([]);
    expect(await stack.crewbot.services.records.ciFixRounds.get("codertocat/hello-world", 2)).toBeUndefined();
  });

  it("a newer failed suite stops a running round, which gives its round back and says so; the newer one runs", async () => {
    // The first round's model answers late: long enough for the second suite to come in.
    const stack = await startStack(
      [
        { delay: 20_000, text: "never read" },
        { content: [use("write", { path: "greet.txt", content: "hi\n" })] },
        DONE,
      ],
      { files: { "greet.txt": "hello\n" } },
    );
    const sha = await crewbotBranch(stack);
    mockInstallationToken();
    mockBotUser();
    const first: string[] = [];
    const second: string[] = [];
    nock(API).get(`${REPO_PATH}/pulls/2`).times(4).reply(200, pull(sha));
    nock(API).get(`${REPO_PATH}/collaborators/crewbot%5Bbot%5D/permission`).optionally().reply(404, { message: "Not Found" });
    mockJobComments({ progressId: 311, edits: first, number: 2, pull: {} });
    const runs = (id: number, slug: string) => [checkRun({ id, name: `${slug} tests`, app: { id: id, slug }, output: { title: "failed", annotations_count: 0 } })];
    mockHeadCheckSuites(sha, [checkSuite({ id: 9600, headSha: sha, app: { id: 31, slug: "ci-one" } })]);
    mockSuiteCheckRuns(9600, runs(31, "ci-one"));
    await stack.probot.receive({ id: "running-1", name: "check_suite", payload: checkSuiteCompleted({ suiteId: 9600, headSha: sha, headBranch: BRANCH, cloneUrl: stack.cloneUrl, app: { id: 31, slug: "ci-one" } }) } as never);
    const [running] = await stack.crewbot.queue.listRecent();
    for (let i = 0; i < 200 && stack.fake.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(stack.fake.requests).toHaveLength(1);

    mockJobComments({ progressId: 312, edits: second, number: 2, pull: {} });
    mockHeadCheckSuites(sha, [checkSuite({ id: 9600, headSha: sha, app: { id: 31, slug: "ci-one" } }), checkSuite({ id: 9601, headSha: sha, app: { id: 32, slug: "ci-two" } })]);
    mockSuiteCheckRuns(9600, runs(31, "ci-one"));
    mockSuiteCheckRuns(9601, runs(32, "ci-two"));
    const newer = await stack.runToEnd("check_suite", checkSuiteCompleted({ suiteId: 9601, headSha: sha, headBranch: BRANCH, cloneUrl: stack.cloneUrl, app: { id: 32, slug: "ci-two" } }), "running-2");
    const stopped = await stack.waitFor(running!.id);

    expect(stopped.state).toBe("cancelled");
    expect(first.at(-1)).toMatch(new RegExp(`^⏹ Cancelled: a newer check suite took over \\(job ${newer.id}\\)`));
    expect(newer.outcome).toMatch(/^✅ Done/);
    // The newer round covers the head: both suites' failures.
    expect(second.at(-1)).toContain(`Automatic fix, round 1 of 2: the checks that failed on ${sha.slice(0, 7)}: \`ci-one tests\`, \`ci-two tests\``);
    expect(await stack.crewbot.services.records.ciFixRounds.get("codertocat/hello-world", 2)).toEqual({ rounds: 1, stopped: false });
  }, 60_000);

  it("a newer failed suite replaces the waiting one in the queue", async () => {
    const stack = await startStack([], { runner: false });
    const sha = await crewbotBranch(stack);
    mockInstallationToken();
    nock(API).get(`${REPO_PATH}/pulls/2`).times(2).reply(200, pull(sha));
    await stack.probot.receive({ id: "older", name: "check_suite", payload: checkSuiteCompleted({ suiteId: 9400, headSha: sha, headBranch: BRANCH, cloneUrl: stack.cloneUrl }) } as never);
    await stack.probot.receive({ id: "newer", name: "check_suite", payload: checkSuiteCompleted({ suiteId: 9401, headSha: sha, headBranch: BRANCH, cloneUrl: stack.cloneUrl, app: { id: 77, slug: "circleci-checks" } }) } as never);
    const jobs = await stack.crewbot.queue.listRecent();
    expect(jobs.map((j) => [j.ciFix?.suiteId, j.state])).toEqual([[9401, "queued"], [9400, "cancelled"]]);
    expect(jobs[1]!.outcome).toBe(`⏹ Superseded by job ${jobs[0]!.id}`);
  });
});
