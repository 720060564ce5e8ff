/**
 * The CI fix loop over one head, printed by `npm run bench` (`BENCH_ONLY=ci-fix-head` for this one
 * alone): crewbot's pull request has three GitHub Actions workflows (test, lint, build), each its own
 * check suite, failing 0, 90 and 180 s apart; a signed `check_suite.completed` comes for each. The app
 * (embedded worker, SQLite) runs the real ci-fix job: a round waits while the head's other suites run
 * (`implement.ciFix.waitMinutes`, default 10), each later failure supersedes the waiting round, and
 * one round should fix all three. Figures: rounds used (goal 1), the jobs made and superseded, the
 * looks at the head's suites, which checks reached the model, and the virtual seconds from the last
 * failure to the round's first model request.
 * Time is virtual: `Date.now` jumps to the next 5 s step once no job runs (the queue's due times and
 * the job's wait deadline read it), so 3 minutes take seconds; webhooks come at their step's start.
 * GitHub is nock answering at once, the suites' state following the virtual clock; the model the fake
 * server (instant); git a local HTTP git server.
 */
import nock from "nock";
import { detectSandbox } from "../src/tools/sandbox.js";
import { checkSuiteCompleted } from "../test/fixtures/check-suite.js";
import { REPO_NAME, REPO_OWNER } from "../test/fixtures/payloads.js";
import { startFakeAnthropic } from "../test/helpers/fake-anthropic.js";
import { gitSync } from "../test/helpers/git-repo.js";
import { API, boot, mockGitHub, REPO } from "./app.js";
import { BRANCH, mockOpenPull, servedRepo } from "./ci-fix.js";

const STEP_MS = 5_000;
const GIVE_UP_MS = 20 * 60_000;
const WORKFLOWS = [
  { suite: 9801, run: 81, name: "test", failsAt: 0 },
  { suite: 9802, run: 82, name: "lint", failsAt: 90_000 },
  { suite: 9803, run: 83, name: "build", failsAt: 180_000 },
];
const ENDS = ["succeeded", "failed", "cancelled"];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ACTIONS = { id: 15368, slug: "github-actions", name: "github-actions" };

// As test/helpers/check-runs.ts builds them (that module registers vitest hooks, so a bench cannot load it).
const checkSuite = (id: number, sha: string, failed: boolean) => ({
  id, node_id: `CS_${id}`, head_branch: BRANCH, head_sha: sha, status: failed ? "completed" : "in_progress", conclusion: failed ? "failure" : null,
  app: ACTIONS, latest_check_runs_count: 1, url: `${API}${REPO}/check-suites/${id}`, check_runs_url: `${API}${REPO}/check-suites/${id}/check-runs`,
});
const checkRun = (id: number, name: string, sha: string) => ({
  id, name, head_sha: sha, status: "completed", conclusion: "failure", app: ACTIONS,
  output: { title: `${name} failed`, summary: `${name}: 1 error`, text: null, annotations_count: 0, annotations_url: "" },
});

/**
 * `Date.now` moved on to `start + target` at each step (never back), for this process; the real
 * time a step takes does not pile up, so a waiting round's looks fall 30 virtual seconds apart.
 */
function virtualClock() {
  const real = Date.now;
  const start = real();
  let offset = 0;
  Date.now = () => real() + offset;
  return {
    elapsed: () => Date.now() - start,
    advanceTo: (target: number) => void (offset = Math.max(offset, start + target - real())),
    restore: () => void (Date.now = real),
  };
}

/** GitHub's answers about the head: each suite running until its workflow fails, at its virtual time. */
function mockHead(sha: string, elapsed: () => number, looks: { count: number }) {
  const scope = mockOpenPull(sha)
    .get(`${REPO}/commits/${sha}/check-suites`)
    .query(true)
    .reply(200, () => {
      looks.count += 1;
      const suites = WORKFLOWS.map((w) => checkSuite(w.suite, sha, elapsed() >= w.failsAt));
      return { total_count: suites.length, check_suites: suites };
    });
  for (const w of WORKFLOWS) {
    scope
      .get(`${REPO}/check-suites/${w.suite}/check-runs`)
      .query(true)
      .reply(200, { total_count: 1, check_runs: [checkRun(w.run, w.name, sha)] })
      .get(`${REPO}/actions/jobs/${w.run}/logs`)
      .reply(200, `##[error]${w.name} exited with 1\n`, { "content-type": "text/plain" });
  }
}

export async function ciFixHeadBench(): Promise<string> {
  const { git, headSha, dir } = await servedRepo();
  const clock = virtualClock();
  const askedAt: number[] = [];
  const fake = await startFakeAnthropic((request) => {
    askedAt.push(clock.elapsed());
    // Each round is its own conversation: its first request has one message.
    if (request.body.messages.length === 1) return { content: [{ type: "tool_use", name: "write", input: { path: "greet.txt", content: "hi\n" } }] };
    return { text: "## Completed\nFixed the failing checks.\n## Files Changed\n- greet.txt\n## Notes\nNone." };
  });
  const writes = { count: 0 };
  const looks = { count: 0 };
  mockGitHub([], writes);
  mockHead(headSha, clock.elapsed, looks);

  const sandbox = await detectSandbox();
  // Without bubblewrap a write job runs no command at all; the bench says when it ran unsandboxed.
  const { started, post } = await boot(true, fake.url, sandbox.available ? {} : { CREWBOT_ALLOW_UNSANDBOXED: "1" });
  const crewbot = started.crewbot!;
  try {
    const sent = new Set<number>();
    for (let step = 0; ; step++) {
      clock.advanceTo(step * STEP_MS);
      for (const w of WORKFLOWS.filter((w) => !sent.has(w.suite) && clock.elapsed() >= w.failsAt)) {
        sent.add(w.suite);
        const payload = checkSuiteCompleted({ suiteId: w.suite, headSha, headBranch: BRANCH, cloneUrl: git.cloneUrl(REPO_OWNER, REPO_NAME) });
        const status = await post(payload, "check_suite");
        if (status !== 200) throw new Error(`check_suite webhook for ${w.name} answered ${status}`);
      }
      await sleep(60); // the runner polls every 20 ms: a due job is claimed by now
      while ((await crewbot.queue.listRecent()).some((j) => j.state === "running")) await sleep(20);
      const jobs = await crewbot.queue.listRecent();
      if (sent.size === WORKFLOWS.length && jobs.length > 0 && jobs.every((j) => ENDS.includes(j.state))) break;
      if (clock.elapsed() > GIVE_UP_MS) throw new Error(`after ${GIVE_UP_MS / 60_000} virtual minutes: ${jobs.map((j) => `${j.state} ${j.outcome ?? ""}`).join("; ")}`);
    }
    const jobs = await crewbot.queue.listRecent();
    const superseded = jobs.filter((j) => /^⏹ Superseded/.test(j.outcome ?? "")).length;
    const done = jobs.filter((j) => !/^⏹ Superseded/.test(j.outcome ?? ""));
    const rounds = (await crewbot.services.records.ciFixRounds.get(`${REPO_OWNER}/${REPO_NAME}`.toLowerCase(), 2))?.rounds ?? 0;
    const conversations = fake.requests.filter((r) => r.body.messages.length === 1);
    const covered = WORKFLOWS.filter((w) => conversations.some((r) => JSON.stringify(r.body.messages).includes(`${w.name}: 1 error`))).map((w) => w.name);
    const lastFailure = Math.max(...WORKFLOWS.map((w) => w.failsAt));
    const firstAsk = askedAt.find((t) => t >= lastFailure);
    const pushed = Number(gitSync(dir, "rev-list", "--count", `${headSha}..${BRANCH}`).trim());
    return (
      `ci-fix over one head: 3 workflows (${WORKFLOWS.map((w) => `${w.name} at ${w.failsAt / 1000} s`).join(", ")}) fail on crewbot's PR, a check_suite webhook each, ` +
      `virtual clock in ${STEP_MS / 1000} s steps, waitMinutes default: rounds used ${rounds} (goal 1) ${rounds === 1 ? "✓" : "✗"}; ` +
      `${jobs.length} ci-fix jobs, ${superseded} superseded while waiting, ${looks.count} looks at the head's suites; ` +
      `${conversations.length} model conversation${conversations.length === 1 ? "" : "s"}, covering ${covered.map((n) => `\`${n}\``).join(", ") || "no check"}; ` +
      `last failure → round's first model request ${firstAsk === undefined ? "never" : `${((firstAsk - lastFailure) / 1000).toFixed(0)} virtual s`}; ` +
      `${pushed} commit${pushed === 1 ? "" : "s"} pushed, ${writes.count} GitHub writes${sandbox.available ? "" : ", unsandboxed (no bubblewrap here)"} — ` +
      done.map((j) => `${j.state}: ${(j.outcome ?? "").slice(0, 120)}`).join("; ")
    );
  } finally {
    await started.stop();
    clock.restore();
    nock.cleanAll();
    await git.close();
    await fake.close().catch(() => undefined);
  }
}
