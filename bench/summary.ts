/**
 * The summary block, printed by `npm run bench` (`BENCH_ONLY=summary`): the 60-file PR of
 * bench/review.ts opened with `review.summary: auto`, reviewed and then summarised by the real app
 * against an instant fake model. Figures: the describer's answer → the PR description written
 * (goal < 3 s), and the writes the summary made (goal: 1, the description's PATCH).
 */
import { performance } from "node:perf_hooks";
import nock from "nock";
import { pullRequestEvent, REPO_NAME, REPO_OWNER } from "../test/fixtures/payloads.js";
import { startFakeAnthropic } from "../test/helpers/fake-anthropic.js";
import { startGitHttpServer } from "../test/helpers/git-http-server.js";
import { GitHubGraphql } from "../test/helpers/github-graphql.js";
import { tempDir } from "../test/helpers/git-repo.js";
import { API, boot, REPO, TOKEN } from "./app.js";
import { makeReviewRepo, mockReviewGitHub, reviewerOutput, type Recorded } from "./review.js";

const SUMMARY = {
  what: "Changes thirty modules to multiply instead of add, with new helpers and tests.",
  walkthrough: [
    { files: "src/mod*.ts", change: "the changed exports multiply by a default factor" },
    { files: "src/new*.ts", change: "new string helpers" },
    { files: "test/*", change: "cases for the new factor and helpers" },
    { files: "package-lock.json, dist/, vendor/", change: "dependency bumps, a rebuilt bundle, a vendored file" },
  ],
  effort: 4,
  effortReason: "a contract change across thirty modules",
  risks: ["callers that expect an offset now get a product"],
  diagram: { participants: ["caller", "src/mod00.ts"], messages: [{ from: "caller", to: "src/mod00.ts", text: "m0_v13(x)" }, { from: "src/mod00.ts", to: "caller", text: "x * y - 13", reply: true }] },
};

export async function summaryBench(): Promise<string> {
  const root = await tempDir("crewbot-bench-summary-");
  const git = await startGitHttpServer({ root, token: TOKEN });
  const repo = await makeReviewRepo(`${root}/${REPO_OWNER}/${REPO_NAME}.git`);
  let answeredAt: number | undefined;
  const fake = await startFakeAnthropic((_request, index) => {
    if (index === 0) return { text: reviewerOutput() };
    if (index === 1) return (answeredAt = performance.now()), { content: [{ type: "tool_use", name: "submit_summary", input: SUMMARY }] };
    return undefined;
  });
  const rec: Recorded = { writes: 0, resolves: 0, comments: { count: 0 }, checks: [], reviews: [] };
  const bodyWrites: number[] = [];
  let body = "The big change.\n\nFixes nothing.";
  // Registered first (nock takes the first match): summary on, no debounce, and the PR's description.
  nock(API).persist().get(`${REPO}/contents/.github%2Fcrewbot.yml`).reply(200, "review:\n  debounceSeconds: 0\n  summary: auto\n", { "content-type": "text/plain; charset=utf-8" });
  nock(API)
    .persist()
    .get(`${REPO}/pulls/1`)
    .reply(200, () => ({ number: 1, body, head: { sha: repo.headSha, repo: { full_name: `${REPO_OWNER}/${REPO_NAME}` } }, base: { ref: "main" } }))
    .patch(`${REPO}/pulls/1`)
    .reply(200, (_uri, raw) => ((body = (typeof raw === "string" ? JSON.parse(raw) : raw).body), bodyWrites.push(performance.now()), {}))
    .get(`${REPO}/pulls/1/commits`)
    .query(true)
    .reply(200, [{ sha: repo.headSha, commit: { message: "A big change" } }]);
  mockReviewGitHub(repo.diff, rec, new GitHubGraphql());
  const { started, post } = await boot(true, fake.url);
  const queue = started.crewbot!.queue;
  try {
    const t0 = performance.now();
    const status = await post(pullRequestEvent("opened", { headSha: repo.headSha, cloneUrl: git.cloneUrl(REPO_OWNER, REPO_NAME) }), "pull_request");
    if (status !== 200) throw new Error(`pull_request webhook answered ${status}`);
    for (;;) {
      const job = (await queue.listRecent())[0];
      if (job && ["succeeded", "failed", "cancelled"].includes(job.state)) break;
      if (performance.now() - t0 > 120_000) throw new Error("the review with its summary did not end within 120 s");
      await new Promise((r) => setTimeout(r, 20));
    }
    await started.crewbot!.background.idle();
    const written = bodyWrites[0];
    const ms = written !== undefined && answeredAt !== undefined ? written - answeredAt : undefined;
    const ok = ms !== undefined && ms < 3000 && bodyWrites.length === 1;
    return (
      `summary of the ${repo.files}-file PR (review.summary: auto, after its review): describer's answer → description written ${ms === undefined ? "never" : `${ms.toFixed(0)} ms`} (goal < 3 s), ` +
      `${bodyWrites.length} write of the description (goal 1) ${ok ? "✓" : "✗"}; block ${body.includes("<!-- crewbot:summary:start -->") ? "in the description" : "missing"}, ${body.length.toLocaleString("en-US")} characters`
    );
  } finally {
    await started.stop();
    await fake.close().catch((e: unknown) => console.warn(`  fake model: ${(e as Error).message}`));
    await git.close();
    nock.cleanAll();
  }
}
