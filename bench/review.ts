/**
 * Automatic reviews, printed by `npm run bench` (`BENCH_ONLY=review` for this one alone):
 * a signed `pull_request.opened` for a generated PR of 60 files and about 2,000 changed lines
 * (sources, tests, a large lockfile, a dist bundle, a vendored file, a binary, a deleted file),
 * reviewed by the real app against an instant fake model that reports 30 findings on real lines
 * (4 outside the diff, 26 inside — one more than a review's inline cap).
 * Figures: webhook → completed check run, GitHub writes, inline comments, committable suggestions,
 * files reviewed vs not; then a push that reverts five flagged lines: threads resolved, and its writes.
 * GitHub is nock answering at once; the review is checked by the same stand-in of GitHub's 422
 * rules the tests use, so a review GitHub would refuse shows up here as a refusal.
 */
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import nock from "nock";
import { pullRequestEvent, REPO_NAME, REPO_OWNER } from "../test/fixtures/payloads.js";
import { startFakeAnthropic } from "../test/helpers/fake-anthropic.js";
import { startGitHttpServer } from "../test/helpers/git-http-server.js";
import { GitHubGraphql } from "../test/helpers/github-graphql.js";
import { githubReviewProblems } from "../test/helpers/github-review-check.js";
import { gitSync, makeRepo, tempDir } from "../test/helpers/git-repo.js";
import type { JobQueue } from "../src/queue/job-queue.js";
import type { JobRecord } from "../src/queue/types.js";
import { API, boot, mockGitHub, REPO, TOKEN } from "./app.js";

const pad = (n: number) => String(n).padStart(2, "0");
const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i + 1)).join("\n") + "\n";

/** 30 modified sources (lines 11–26 of 60 rewritten), 14 new sources, 5 modified and 6 new tests. */
const MODIFIED = 30;
const ADDED = 14;
const CHANGED_FROM = 11;
const CHANGED_TO = 26;


/** One line of a module: a small function per line, so any line is real code to comment on. */
const modLine = (m: number, edited: boolean) => (i: number) =>
  edited && i >= CHANGED_FROM && i <= CHANGED_TO
    ? `export const m${m}_v${i} = (x: number, y = ${i}): number => x * y - ${i}; // changed`
    : `export const m${m}_v${i} = (x: number): number => x + ${i};`;

function lockfile(version: (i: number) => string): string {
  const packages = Array.from({ length: 1500 }, (_, i) => `    "node_modules/pkg-${i}": {\n      "version": "${version(i)}",\n      "resolved": "https://registry.npmjs.org/pkg-${i}/-/pkg-${i}-${version(i)}.tgz",\n      "integrity": "sha512-${Buffer.from(`pkg-${i}-${version(i)}`).toString("base64")}"\n    }`);
  return `{\n  "name": "bench",\n  "lockfileVersion": 3,\n  "packages": {\n${packages.join(",\n")}\n  }\n}\n`;
}

export interface ReviewRepo {
  dir: string;
  headSha: string;
  /** `git diff --numstat main...feature`: files and added + deleted lines (binary counted as 0). */
  files: number;
  changedLines: number;
  diff: string;
}

/** The served repository: `main`, and `feature` 60 files away from it, with `refs/pull/1/head` at its head. */
export async function makeReviewRepo(dir: string): Promise<ReviewRepo> {
  const base: Record<string, string> = {};
  for (let m = 0; m < MODIFIED; m++) base[`src/mod${pad(m)}.ts`] = lines(60, modLine(m, false));
  for (let t = 0; t < 5; t++) base[`test/mod${pad(t)}.test.ts`] = lines(40, (i) => `test("case ${t}.${i}", () => expect(f${t}(${i})).toBe(${i + 1}));`);
  base["src/legacy.ts"] = lines(40, (i) => `export const legacy${i} = ${i}; // to be removed`);
  base["package-lock.json"] = lockfile(() => "1.0.0");
  base["dist/bundle.js"] = lines(120, (i) => `var b${i}=function(a){return a+${i}};`);
  base["assets/logo.png"] = randomBytes(4096).toString("latin1"); // binary: NUL bytes among others
  await makeRepo(base, dir);
  // The binary file as real bytes (makeRepo writes strings as UTF-8).
  await writeFile(path.join(dir, "assets/logo.png"), Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), randomBytes(4096)]));
  gitSync(dir, "commit", "-q", "-am", "binary logo");

  gitSync(dir, "checkout", "-q", "-b", "feature");
  const head: Record<string, string | Buffer> = {};
  for (let m = 0; m < MODIFIED; m++) head[`src/mod${pad(m)}.ts`] = lines(60, modLine(m, true));
  for (let a = 0; a < ADDED; a++) head[`src/new${pad(a)}.ts`] = lines(25, (i) => (i % 3 === 1 ? `// new module ${a}, part ${i}` : `export const n${a}_${i} = (s: string): string => s.repeat(${i});`));
  for (let t = 0; t < 5; t++) head[`test/mod${pad(t)}.test.ts`] = lines(40, (i) => (i >= 10 && i <= 14 ? `test("case ${t}.${i}", () => expect(f${t}(${i}, 2)).toBe(${i * 2}));` : `test("case ${t}.${i}", () => expect(f${t}(${i})).toBe(${i + 1}));`));
  for (let t = 0; t < 6; t++) head[`test/new${pad(t)}.test.ts`] = lines(20, (i) => `test("new ${t}.${i}", () => expect(n${t}_${i}("a")).toBe("${"a".repeat(i)}"));`);
  head["package-lock.json"] = lockfile((i) => (i % 30 === 0 ? "1.1.0" : "1.0.0")); // 50 of 1,500 packages bumped
  head["dist/bundle.js"] = lines(120, (i) => (i <= 80 ? `var b${i}=function(a,c){return a*c+${i}};` : `var b${i}=function(a){return a+${i}};`));
  head["vendor/lib.js"] = lines(40, (i) => `/* vendored */ exports.v${i} = ${i};`);
  head["assets/logo.png"] = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]), randomBytes(4096)]);
  for (const [name, content] of Object.entries(head)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
  gitSync(dir, "rm", "-q", "src/legacy.ts");
  gitSync(dir, "add", "-A");
  gitSync(dir, "commit", "-q", "-m", "A big change");
  const headSha = gitSync(dir, "rev-parse", "HEAD").trim();
  gitSync(dir, "update-ref", "refs/pull/1/head", headSha);
  gitSync(dir, "checkout", "-q", "main");

  const numstat = gitSync(dir, "diff", "--numstat", "main...feature").trim().split("\n");
  const changedLines = numstat.reduce((n, row) => {
    const [add, del] = row.split("\t");
    return n + (add === "-" ? 0 : Number(add)) + (del === "-" ? 0 : Number(del));
  }, 0);
  return { dir, headSha, files: numstat.length, changedLines, diff: gitSync(dir, "diff", "-M", "main...feature") };
}

/**
 * The reviewer's answer: 30 findings on real lines of several files. 26 sit on changed lines
 * (one more than the 25 inline comments a review gets), 4 on lines outside the diff.
 */
export function reviewerOutput(): string {
  const critical: string[] = [];
  const warnings: string[] = [];
  const suggestions: string[] = [];
  // 10 modified sources, two changed lines each: 20 in the diff.
  for (let m = 0; m < 10; m++) {
    // Each with its fix as a committable suggestion: the line as it was.
    const fix = modLine(m, false)(CHANGED_FROM + 2);
    critical.push(`- src/mod${pad(m)}.ts:${CHANGED_FROM + 2} - \`m${m}_v${CHANGED_FROM + 2}\` now multiplies; callers still expect an offset.\n  \`\`\`suggestion\n  ${fix}\n  \`\`\``);
    warnings.push(`- src/mod${pad(m)}.ts:${CHANGED_FROM + 8} - \`y\` defaults to a magic number; name it.`);
  }
  // New files and tests: 6 more in the diff, one a range inside one hunk.
  suggestions.push("- src/new00.ts:3-6 - these helpers repeat each other; one with a parameter would do.");
  suggestions.push("- src/new01.ts:10 - `repeat` with a large count allocates a large string.");
  suggestions.push("- src/new02.ts:20 - no test covers this export.");
  warnings.push("- test/new00.test.ts:5 - the expectation repeats the implementation instead of a known value.");
  warnings.push("- test/mod00.test.ts:12 - the changed case no longer checks the default argument.");
  suggestions.push("- src/new03.ts:1 - the module comment says nothing the file name does not.");
  // Outside the diff (unchanged lines of modified files): these go into the review body.
  warnings.push("- src/mod20.ts:50 - unrelated to this change, but this export is unused.");
  warnings.push("- src/mod21.ts:55 - this line was not changed; it still adds where the others now multiply.");
  suggestions.push("- src/mod22.ts:3 - consider a shared helper for these one-liners.");
  suggestions.push("- src/mod23.ts:45 - dead code since the change above.");
  return [
    "## Critical",
    ...critical,
    "## Warnings",
    ...warnings,
    "## Suggestions",
    ...suggestions,
    "## Summary",
    "The multiplication changes the contract of thirty modules; callers and tests need to follow.",
  ].join("\n");
}

export interface Recorded {
  writes: number;
  /** `resolveReviewThread` mutations (writes too); reads of the threads are not writes. */
  resolves: number;
  /** Reactions and issue comments (an automatic review should make none). */
  comments: { count: number };
  checks: Array<{ method: string; at: number; body: any }>;
  reviews: Array<{ at: number; body: any; status: number; problems: string[] }>;
}

const json = (raw: unknown): any => (typeof raw === "string" ? JSON.parse(raw) : raw);

/** GitHub for one automatic review: the app's usual stand-ins, check runs, and PR reviews held to GitHub's rules. */
export function mockReviewGitHub(diff: string, rec: Recorded, threads: GitHubGraphql): void {
  // No debounce, so the review of the fixing push runs at once (registered first: nock takes the first match);
  // no dependency pass: its lockfile's packages are made up (bench/deps.ts measures that pass).
  nock(API).persist().get(`${REPO}/contents/.github%2Fcrewbot.yml`).reply(200, "review:\n  debounceSeconds: 0\n  dependencies:\n    enabled: false\n", { "content-type": "text/plain; charset=utf-8" });
  // Review threads over GraphQL, answered by the schema-checked stand-in; a mutation is a write.
  nock(API)
    .persist()
    .post("/graphql")
    .reply(async (_uri, raw) => {
      const body = json(raw) as { query: string; variables?: Record<string, unknown> };
      if (/^\s*mutation\b/.test(body.query)) ((rec.writes += 1), (rec.resolves += 1));
      return [200, await threads.execute(body)];
    });
  // A pull request's conversation also holds its review comments and reviews (none here).
  nock(API).persist().get(`${REPO}/pulls/1/comments`).query(true).reply(200, []).get(`${REPO}/pulls/1/reviews`).query(true).reply(200, []);
  // Token, permission, conversation, no config (repo and org); its reactions and comments count as writes too.
  mockGitHub([], rec.comments);
  const checkId = 9001;
  nock(API)
    .persist()
    .post(`${REPO}/check-runs`)
    .reply(201, (_uri, raw) => ((rec.writes += 1), rec.checks.push({ method: "POST", at: performance.now(), body: json(raw) }), { id: checkId }))
    .patch(`${REPO}/check-runs/${checkId}`)
    .reply(200, (_uri, raw) => ((rec.writes += 1), rec.checks.push({ method: "PATCH", at: performance.now(), body: json(raw) }), { id: checkId }))
    .post(`${REPO}/pulls/1/reviews`)
    .reply((_uri, raw) => {
      rec.writes += 1;
      const body = json(raw);
      const problems = githubReviewProblems(diff, body as never);
      const status = problems.length > 0 ? 422 : 200;
      rec.reviews.push({ at: performance.now(), body, status, problems });
      if (status === 422) return [422, { message: "Unprocessable Entity", errors: problems }];
      threads.addReview(body);
      return [200, { id: 700 + rec.reviews.length, html_url: `https://github.com/${REPO_OWNER}/${REPO_NAME}/pull/1#pullrequestreview-${700 + rec.reviews.length}` }];
    })
    // Anything else the app writes is counted too, and answered, so the job goes on.
    .post(/.*/)
    .reply(201, (uri) => ((rec.writes += 1), rec.checks.push({ method: `POST ${uri}`, at: performance.now(), body: null }), {}))
    .patch(/.*/)
    .reply(200, (uri) => ((rec.writes += 1), rec.checks.push({ method: `PATCH ${uri}`, at: performance.now(), body: null }), {}));
}

/** Modules whose flagged line (CHANGED_FROM + 2, the critical finding's) the fixing push reverts. */
const FIXED = 5;

/** Reverts the flagged line of FIXED modules on `feature`, moves the PR's head, delivers the synchronize; returns the job's end. */
async function fixingPush(repo: ReviewRepo, cloneUrl: string, post: (payload: unknown, event: string) => Promise<number>, queue: JobQueueLike, firstJob: string): Promise<string> {
  const dir = repo.dir;
  gitSync(dir, "checkout", "-q", "feature");
  for (let m = 0; m < FIXED; m++) {
    const file = lines(60, (i) => (i === CHANGED_FROM + 2 ? modLine(m, false)(i) : modLine(m, true)(i)));
    await writeFile(path.join(dir, `src/mod${pad(m)}.ts`), file);
  }
  gitSync(dir, "commit", "-q", "-am", "Fix the flagged lines");
  const sha = gitSync(dir, "rev-parse", "HEAD").trim();
  gitSync(dir, "update-ref", "refs/pull/1/head", sha);
  gitSync(dir, "checkout", "-q", "main");
  const t0 = performance.now();
  const status = await post(pullRequestEvent("synchronize", { headSha: sha, cloneUrl }), "pull_request");
  if (status !== 200) throw new Error(`synchronize webhook answered ${status}`);
  for (;;) {
    const job = (await queue.listRecent()).find((j) => j.id !== firstJob);
    if (job && ["succeeded", "failed", "cancelled"].includes(job.state)) return `${job.state}: ${job.outcome ?? ""} (${(performance.now() - t0).toFixed(0)} ms)`;
    if (performance.now() - t0 > 120_000) throw new Error("the review of the fixing push did not end within 120 s");
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface JobQueueLike {
  listRecent(): Promise<Array<{ id: string; state: string; outcome?: string }>>;
}

/** "Reviewed X of Y changed files", and the "### Not reviewed" section's count and reasons. */
function parseReviewBody(body: string): { reviewed?: number; total?: number; notReviewed?: number; listed: number; tally?: string; inBody: number } {
  const reviewed = /Reviewed (\d+) of (\d+) changed files?/.exec(body);
  const section = body.split("### Not reviewed")[1] ?? "";
  const other = (body.split("### Other findings")[1] ?? "").split("### Not reviewed")[0]!;
  const not = /(\d+) of (\d+) changed files? (?:was|were) not reviewed \(([^)]*)\)/.exec(section);
  return {
    reviewed: reviewed ? Number(reviewed[1]) : undefined,
    total: reviewed ? Number(reviewed[2]) : undefined,
    notReviewed: not ? Number(not[1]) : undefined,
    listed: section.split("\n").filter((l) => /^- `.+` — /.test(l)).length,
    tally: not?.[3],
    inBody: other.split("\n").filter((l) => /^- \*\*(Critical|Warning|Suggestion)\*\*/.test(l)).length,
  };
}

export async function reviewBench(): Promise<string> {
  const root = await tempDir("crewbot-bench-served-");
  const git = await startGitHttpServer({ root, token: TOKEN });
  const repo = await makeReviewRepo(`${root}/${REPO_OWNER}/${REPO_NAME}.git`);
  const asked: number[] = [];
  const answer = reviewerOutput();
  // Instant: the review, then (if the fixing push leaves anything to review) a clean one; any further request gets the fake's loud 400.
  const fake = await startFakeAnthropic((_request, index) => (asked.push(performance.now()), index === 0 ? { text: answer } : index === 1 ? { text: "## Summary\nThe fixes look right." } : undefined));
  const rec: Recorded = { writes: 0, resolves: 0, comments: { count: 0 }, checks: [], reviews: [] };
  const threads = new GitHubGraphql();
  mockReviewGitHub(repo.diff, rec, threads);
  const { started, post } = await boot(true, fake.url);
  const queue = started.crewbot!.queue;
  try {
    const payload = pullRequestEvent("opened", { headSha: repo.headSha, cloneUrl: git.cloneUrl(REPO_OWNER, REPO_NAME) });
    const t0 = performance.now();
    const status = await post(payload, "pull_request");
    if (status !== 200) throw new Error(`pull_request webhook answered ${status}`);
    const job = await queuedJobEnded(queue, t0);
    const total = performance.now() - t0;
    const end = (await queue.get(job.id))!;
    await started.crewbot!.background.idle();
    const firstWrites = { all: rec.writes + rec.comments.count, checks: rec.checks.length, reviews: rec.reviews.length };
    const annotations = rec.checks.reduce((n, c) => n + (c.body?.output?.annotations?.length ?? 0), 0);
    const fixing = await fixingPush(repo, git.cloneUrl(REPO_OWNER, REPO_NAME), post, queue, job.id);
    await started.crewbot!.background.idle();
    const figures = reviewFigures({ repo, rec, threads, fake, asked, t0, total, firstWrites, annotations, fixing });
    return `${figures.join("; ")} — ${end.state}: ${end.outcome ?? ""}`;
  } finally {
    await started.stop();
    await fake.close().catch((e: unknown) => console.warn(`  fake model: ${(e as Error).message}`));
    await git.close();
    nock.cleanAll();
  }
}

/** The review job the webhook queued, once it ended. */
async function queuedJobEnded(queue: Pick<JobQueue, "listRecent" | "get">, t0: number): Promise<JobRecord> {
  let jobs = await queue.listRecent();
  while (jobs.length === 0 && performance.now() - t0 < 10_000) {
    await new Promise((r) => setTimeout(r, 20));
    jobs = await queue.listRecent();
  }
  const job = jobs[0];
  if (!job) throw new Error("no review job was queued for the pull_request webhook");
  const ends = ["succeeded", "failed", "cancelled"];
  while (!ends.includes((await queue.get(job.id))!.state)) {
    if (performance.now() - t0 > 120_000) throw new Error(`the review job is still ${(await queue.get(job.id))!.state} after 120 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return job;
}

interface ReviewBenchRun {
  repo: ReviewRepo;
  rec: Recorded;
  threads: GitHubGraphql;
  fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
  /** When each model request arrived. */
  asked: number[];
  /** The webhook's delivery, and how long its job took (ms). */
  t0: number;
  total: number;
  /** The first review's writes, before the fixing push. */
  firstWrites: { all: number; checks: number; reviews: number };
  annotations: number;
  /** The fixing push's job end. */
  fixing: string;
}

/** The bench's figures, one part each: timings, writes, findings, files, the check run, suggestions, the fixing push. */
function reviewFigures({ repo, rec, threads, fake, asked, t0, total, firstWrites, annotations, fixing }: ReviewBenchRun): string[] {
  const checkStarted = rec.checks.find((c) => c.method === "POST" && c.body?.status === "in_progress");
  const completed = rec.checks.find((c) => c.method === "PATCH" && c.body?.status === "completed") ?? rec.checks.find((c) => c.body?.status === "completed");
  const accepted = rec.reviews.find((r) => r.status === 200);
  const sent = accepted ?? rec.reviews.at(-1);
  const parsed = parseReviewBody(sent?.body?.body ?? "");
  const summary: string = completed?.body?.output?.summary ?? "";
  const fromCheck = /Reviewed (\d+) of (\d+) changed files?/.exec(summary);
  const refused = rec.reviews.filter((r) => r.status !== 200);
  const context = JSON.stringify(fake.requests[0]?.body.messages ?? []);
  const leaked = ["node_modules/pkg-", "vendored */", "var b1=function", "to be removed"].filter((s) => context.includes(s));
  const seconds = total / 1000;
  // The first review's figures; the fixing push's come after.
  const writes = firstWrites.all;
  const firstChecks = rec.checks.slice(0, firstWrites.checks);
  const parts = [
    `automatic review of a ${repo.files}-file, ${repo.changedLines}-line PR (pull_request.opened), instant fake model, ${fake.requests.length} model request${fake.requests.length === 1 ? "" : "s"} (${(JSON.stringify(fake.requests[0]?.body ?? {}).length / 1024).toFixed(0)} KB): ` +
      `webhook → check run started ${checkStarted ? `${(checkStarted.at - t0).toFixed(0)} ms` : "never"}, model asked ${asked.length > 0 ? `${(asked[0]! - t0).toFixed(0)} ms` : "never"}, review posted ${sent ? `${(sent.at - t0).toFixed(0)} ms` : "never"}, ` +
      `completed check run ${completed ? `${(completed.at - t0).toFixed(0)} ms` : "never"} (job ${total.toFixed(0)} ms; the writer spaces writes 1 s apart)`,
    `${writes} GitHub writes (${firstChecks.filter((c) => c.method === "POST").length} check-run POST, ${firstChecks.filter((c) => c.method === "PATCH").length} PATCH, ${firstWrites.reviews} review POST` +
      `${rec.comments.count > 0 ? `, ${rec.comments.count} comments/reactions` : ""}${rec.checks.some((c) => c.method.includes(" ")) ? `, other: ${rec.checks.filter((c) => c.method.includes(" ")).map((c) => c.method).join(", ")}` : ""}), ` +
      `${(writes / seconds).toFixed(2)} per s`,
    `30 findings → ${sent?.body?.comments?.length ?? 0} inline comments + ${parsed.inBody} in the review body` + (refused.length > 0 ? ` (${refused.length} review${refused.length === 1 ? "" : "s"} refused with 422: ${refused[0]!.problems.slice(0, 2).join("; ")})` : ""),
    `reviewed ${parsed.reviewed ?? "?"} of ${parsed.total ?? "?"} files, ${parsed.notReviewed ?? 0} not reviewed (${parsed.tally ?? "none listed"}; ${parsed.listed} listed)` +
      (fromCheck && (Number(fromCheck[1]) !== parsed.reviewed || Number(fromCheck[2]) !== parsed.total) ? ` — the check run says ${fromCheck[1]} of ${fromCheck[2]}` : ""),
    `check run ${completed?.body?.conclusion ?? "not completed"} "${completed?.body?.output?.title ?? ""}"`,
  ];
  const suggestions = (sent?.body?.comments ?? []).filter((c: { body: string }) => c.body.includes("```suggestion")).length;
  const later = rec.checks.slice(firstWrites.checks);
  parts.push(
    `${suggestions} committable suggestions posted; ${firstWrites.reviews} review POST and ${firstChecks.filter((c) => c.method === "PATCH").length} check-run update for ${annotations} annotations (at most 50 each)`,
    `fixing push (${FIXED} flagged lines reverted) → ${rec.resolves} threads resolved (${threads.threads.filter((t) => t.isResolved).length} of ${threads.threads.length} resolved on GitHub), ` +
      `${rec.writes + rec.comments.count - firstWrites.all} GitHub writes (${rec.resolves} resolveReviewThread, ${later.length} check-run requests, ${rec.reviews.length - firstWrites.reviews} review POST), ${threads.requests.length - rec.resolves} GraphQL reads — ${fixing}`,
  );
  if (leaked.length > 0) parts.push(`files not to review in the reviewer's diff: ${leaked.join(", ")}`);
  return parts;
}
