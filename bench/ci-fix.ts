/**
 * ci-fix, printed by `npm run bench` (`BENCH_ONLY=ci-fix` for this one alone): a signed
 * `check_suite.completed` (failure) on the head of crewbot's own pull request, whose one failed
 * GitHub Actions run has a 5 MB log behind GitHub's redirect. Figures: webhook → the worker's
 * first model request (goal < 3 s) with an instant fake model, and the bytes of log that reached
 * the model. GitHub is nock answering at once, the log a local server, git a local HTTP git server.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import nock from "nock";
import { detectSandbox } from "../src/tools/sandbox.js";
import { checkSuiteCompleted } from "../test/fixtures/check-suite.js";
import { REPO_NAME, REPO_OWNER } from "../test/fixtures/payloads.js";
import { startFakeAnthropic } from "../test/helpers/fake-anthropic.js";
import { startGitHttpServer } from "../test/helpers/git-http-server.js";
import { gitSync, makeRepo, tempDir } from "../test/helpers/git-repo.js";
import { API, boot, mockGitHub, REPO, TOKEN } from "./app.js";

const LOG_BYTES = 5 * 1024 * 1024;
/** crewbot's branch, PR #2's head. */
export const BRANCH = "crewbot/issue-1-greet";
const SUITE = 4242;
const RUN = 777;
const LAST_LINE = "not ok 1 - greets with hi";

/** A 5 MB Actions log as GitHub stores it: timestamped lines, colour codes, groups, the failure at the end. */
function serveLog(): Promise<{ url: string; close: () => Promise<void> }> {
  const line = "2026-12-01T10:00:00.0000000Z \u001b[36m[build]\u001b[0m compiling module 12345 of 99999 with the usual flags\n";
  const last = `2026-12-01T10:05:00.0000000Z ##[group]Run npm test\n2026-12-01T10:05:01.0000000Z \u001b[31m${LAST_LINE}\u001b[0m\n2026-12-01T10:05:02.0000000Z ##[error]Process completed with exit code 1.\n`;
  const block = line.repeat(Math.ceil(65536 / line.length));
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    let left = LOG_BYTES - last.length;
    const pump = () => {
      while (left > 0) {
        const piece = block.slice(0, Math.min(left, block.length));
        left -= piece.length;
        if (!res.write(piece)) return void res.once("drain", pump);
      }
      res.end(last);
    };
    pump();
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) }),
    ),
  );
}

export async function ciFixBench(): Promise<string> {
  const { git, headSha } = await servedRepo();
  const log = await serveLog();
  const asked: number[] = [];
  const fake = await startFakeAnthropic((_request, index) => {
    asked.push(performance.now());
    if (index === 0) return { content: [{ type: "tool_use", name: "write", input: { path: "greet.txt", content: "hi\n" } }] };
    return index === 1 ? { text: "## Completed\nFixed.\n## Files Changed\n- greet.txt\n## Notes\nNone." } : undefined;
  });
  const writes = { count: 0 };
  mockGitHub([], writes);
  mockFailedHead(headSha, log.url);

  const sandbox = await detectSandbox();
  // Without bubblewrap a write job runs no command at all; the bench says when it ran unsandboxed.
  const { started, post } = await boot(true, fake.url, sandbox.available ? {} : { CREWBOT_ALLOW_UNSANDBOXED: "1" });
  const queue = started.crewbot!.queue;
  try {
    const payload = checkSuiteCompleted({ suiteId: SUITE, headSha, headBranch: BRANCH, cloneUrl: git.cloneUrl(REPO_OWNER, REPO_NAME) });
    const t0 = performance.now();
    const status = await post(payload, "check_suite");
    if (status !== 200) throw new Error(`check_suite webhook answered ${status}`);
    const end = await endedJob(queue, t0);
    const context = JSON.stringify(fake.requests[0]?.body.messages ?? []);
    const fence = /The end of the job's log[^`]*```text\\n([\s\S]*?)\\n```/.exec(context);
    const logText = fence ? JSON.parse(`"${fence[1]}"`) as string : "";
    const first = asked[0] === undefined ? "never" : `${(asked[0] - t0).toFixed(0)} ms (goal < 3000 ms)`;
    return (
      `ci-fix: check_suite.completed (failure) → worker's first model request ${first}, with a ${(LOG_BYTES / 1024 / 1024).toFixed(0)} MB Actions log: ` +
      `${Buffer.byteLength(logText).toLocaleString("en")} bytes of log reached the model (its last line ${context.includes(LAST_LINE) ? "included" : "MISSING"}), ` +
      `${fake.requests.length} model requests, ${writes.count} GitHub writes${sandbox.available ? "" : ", unsandboxed (no bubblewrap here)"} — ${end.state}: ${end.outcome ?? ""}`
    );
  } finally {
    await started.stop();
    nock.cleanAll();
    await git.close();
    await fake.close().catch(() => undefined);
    await log.close();
  }
}

/** The repository on a local HTTP git server, with crewbot's branch as PR #2's head. */
export async function servedRepo(): Promise<{ git: Awaited<ReturnType<typeof startGitHttpServer>>; headSha: string; dir: string }> {
  const root = await tempDir("crewbot-bench-served-");
  const git = await startGitHttpServer({ root, token: TOKEN, receivePack: true });
  const dir = `${root}/${REPO_OWNER}/${REPO_NAME}.git`;
  await makeRepo({ "greet.txt": "hello\n" }, dir);
  gitSync(dir, "branch", BRANCH);
  gitSync(dir, "update-ref", "refs/pull/2/head", BRANCH);
  return { git, headSha: gitSync(dir, "rev-parse", BRANCH).trim(), dir };
}

/** crewbot's open PR #2 at `sha`, with no comments or reviews yet; persistent, for more interceptors to chain. */
export function mockOpenPull(sha: string): nock.Scope {
  const pull = {
    number: 2, state: "open", title: "Greet with hi", body: "Closes #1", user: { login: "crewbot[bot]", type: "Bot" },
    head: { ref: BRANCH, sha, repo: { full_name: `${REPO_OWNER}/${REPO_NAME}` } },
    base: { ref: "main", sha, repo: { full_name: `${REPO_OWNER}/${REPO_NAME}` } },
  };
  return nock(API)
    .persist()
    .get(`${REPO}/pulls/2`)
    .reply(200, pull)
    .get(new RegExp(`${REPO}/pulls/2/(comments|reviews)`))
    .query(true)
    .reply(200, []);
}

/** GitHub's side: the open PR, its head's one failed suite and run, an annotation, and the log behind a redirect. */
function mockFailedHead(headSha: string, logUrl: string): void {
  mockOpenPull(headSha)
    .get(`${REPO}/commits/${headSha}/check-suites`)
    .query(true)
    .reply(200, { total_count: 1, check_suites: [{ id: SUITE, head_sha: headSha, status: "completed", conclusion: "failure", app: { id: 15368, slug: "github-actions" }, latest_check_runs_count: 1 }] })
    .get(`${REPO}/check-suites/${SUITE}/check-runs`)
    .query(true)
    .reply(200, {
      total_count: 1,
      check_runs: [{ id: RUN, name: "test", head_sha: headSha, status: "completed", conclusion: "failure", app: { id: 15368, slug: "github-actions" }, output: { title: "1 failing", summary: "greet failed", text: null, annotations_count: 1 } }],
    })
    .get(`${REPO}/check-runs/${RUN}/annotations`)
    .query(true)
    .reply(200, [{ path: "greet.txt", start_line: 1, end_line: 1, annotation_level: "failure", message: "expected hi" }])
    .get(`${REPO}/actions/jobs/${RUN}/logs`)
    .reply(302, "", { Location: `${logUrl}/log?sig=x` });
}

type BenchQueue = NonNullable<Awaited<ReturnType<typeof boot>>["started"]["crewbot"]>["queue"];

/** The job the webhook queued, once it ended. */
async function endedJob(queue: BenchQueue, t0: number) {
  let job = (await queue.listRecent())[0];
  while (!job && performance.now() - t0 < 10_000) {
    await new Promise((r) => setTimeout(r, 20));
    job = (await queue.listRecent())[0];
  }
  if (!job) throw new Error("no ci-fix job was queued for the check_suite webhook");
  const ends = ["succeeded", "failed", "cancelled"];
  while (!ends.includes((await queue.get(job.id))!.state)) {
    if (performance.now() - t0 > 120_000) throw new Error(`the ci-fix job is still ${(await queue.get(job.id))!.state} after 120 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return (await queue.get(job.id))!;
}
