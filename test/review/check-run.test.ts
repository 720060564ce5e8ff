import nock from "nock";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { InstallationOctokit } from "../../src/github/types.js";
import type { JobRecord } from "../../src/queue/types.js";
import { CHECK_NAME, CHECK_SUMMARY_LIMIT, CheckRun, finaliseCheckRun, type CheckRunTarget } from "../../src/review/check-run.js";
import { GitHubWriter } from "../../src/report/github-writer.js";
import { TestOctokit } from "../helpers/app-stand-ins.js";
import { API, TOKEN, useNock } from "../helpers/github.js";

useNock();

const POST = "POST /repos/{owner}/{repo}/check-runs";
const PATCH = "PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}";
const SHA = "0123456789abcdef0123456789abcdef01234567";
const T0 = new Date("2024-05-06T07:00:00.000Z");
const T1 = new Date("2024-05-06T07:03:00.000Z");

function fakeWriter() {
  const calls: Array<{ route: string; params: Record<string, unknown> }> = [];
  const writer = {
    write: async (route: string, params: Record<string, unknown> = {}) => {
      calls.push({ route, params });
      return { status: 201, headers: {}, data: { id: 77 } };
    },
  };
  return { calls, writer: writer as unknown as GitHubWriter };
}

/** A clock giving T0, then T1, then T1 again… */
const clock = () => {
  const times = [T0, T1];
  return () => times.shift() ?? T1;
};

const target = (o: Partial<CheckRunTarget> = {}): CheckRunTarget => ({ owner: "o", repo: "r", headSha: SHA, externalId: "job-1", ...o });

describe("CheckRun", () => {
  it("start then complete: POST in_progress, then PATCH completed on the run's id", async () => {
    const { calls, writer } = fakeWriter();
    const run = new CheckRun(writer, target({ detailsUrl: "https://crewbot.example/jobs/job-1" }), clock());
    expect(run.started).toBe(false);
    await run.start();
    expect(run.started).toBe(true);
    await run.complete("neutral", { title: "1 critical · 0 warnings · 0 suggestions", summary: "- Findings" });
    expect(calls).toEqual([
      {
        route: POST,
        params: {
          owner: "o",
          repo: "r",
          name: "crewbot/review",
          head_sha: SHA,
          external_id: "job-1",
          details_url: "https://crewbot.example/jobs/job-1",
          status: "in_progress",
          started_at: "2024-05-06T07:00:00.000Z",
          output: { title: "Reviewing", summary: "crewbot is reviewing this pull request." },
        },
      },
      {
        route: PATCH,
        params: {
          owner: "o",
          repo: "r",
          check_run_id: 77,
          status: "completed",
          conclusion: "neutral",
          completed_at: "2024-05-06T07:03:00.000Z",
          output: { title: "1 critical · 0 warnings · 0 suggestions", summary: "- Findings" },
        },
      },
    ]);
    expect(CHECK_NAME).toBe("crewbot/review");
  });

  it.each([
    [0, [0]],
    [50, [50]],
    [51, [50, 1]],
    [120, [50, 50, 20]],
  ])("complete without start, %i annotations: the create carries the first 50, each update of the created run 50 more", async (n, sizes) => {
    const { calls, writer } = fakeWriter();
    const annotations = Array.from({ length: n }, (_, i) => ({ path: "a.ts", start_line: i + 1, end_line: i + 1, annotation_level: "notice" as const, message: `m${i}` }));
    await new CheckRun(writer, target(), clock()).complete("neutral", { title: "T", summary: "S" }, annotations);
    expect(calls.map((c) => [c.route, (c.params.output as { annotations?: unknown[] }).annotations?.length ?? 0])).toEqual(sizes.map((size, i) => [i === 0 ? POST : PATCH, size]));
    for (const later of calls.slice(1)) expect(later.params).toEqual({ owner: "o", repo: "r", check_run_id: 77, output: { title: "T", summary: "S", annotations: expect.any(Array) } });
    expect(calls.flatMap((c) => (c.params.output as { annotations?: Array<{ message: string }> }).annotations ?? []).map((a) => a.message)).toEqual(annotations.map((a) => a.message));
  });

  it.each<[string, Array<{ id: number; status: string; external_id: string | null }>, string[]]>([
    ["its run left in progress", [{ id: 5, status: "completed", external_id: "job-0" }, { id: 8, status: "in_progress", external_id: "job-1" }], ["PATCH 8", "PATCH 8"]],
    ["its run completed already (it died before the queue heard)", [{ id: 8, status: "completed", external_id: "job-1" }], ["PATCH 8", "PATCH 8"]],
    ["no run of its own (it died before creating one)", [{ id: 5, status: "in_progress", external_id: "job-0" }], ["POST", "PATCH 77"]],
  ])("resume, for a job run again after a crash, finds %s and writes no second run", async (_what, runs, writes) => {
    nock(API)
      .get(`/repos/o/r/commits/${SHA}/check-runs`)
      .query({ check_name: "crewbot/review", filter: "all", per_page: "100", app_id: "31337" })
      .reply(200, { total_count: runs.length, check_runs: runs });
    const { calls, writer } = fakeWriter();
    const run = new CheckRun(writer, target(), clock());
    await run.resume(new TestOctokit({ auth: TOKEN }) as InstallationOctokit, 31337);
    await run.start();
    await run.complete("success", { title: "No findings", summary: "s" });
    expect(calls.map((c) => (c.route === POST ? "POST" : `PATCH ${c.params.check_run_id}`))).toEqual(writes);
    expect(calls[0]!.params).toMatchObject({ status: "in_progress", output: { title: "Reviewing" } });
    expect(calls[1]!.params).toMatchObject({ status: "completed", conclusion: "success" });
  });

  it("start with a title of its own", async () => {
    const { calls, writer } = fakeWriter();
    await new CheckRun(writer, target(), clock()).start("Waiting for the debounce");
    expect((calls[0]!.params.output as { title: string }).title).toBe("Waiting for the debounce");
  });

  it("complete without start: one POST, created completed, no details_url when none is given", async () => {
    const { calls, writer } = fakeWriter();
    const run = new CheckRun(writer, target(), clock());
    await run.complete("skipped", { title: "Skipped", summary: "Not reviewed automatically: x." });
    expect(calls).toEqual([
      {
        route: POST,
        params: {
          owner: "o",
          repo: "r",
          name: "crewbot/review",
          head_sha: SHA,
          external_id: "job-1",
          status: "completed",
          conclusion: "skipped",
          completed_at: "2024-05-06T07:00:00.000Z",
          output: { title: "Skipped", summary: "Not reviewed automatically: x." },
        },
      },
    ]);
    expect(calls[0]!.params).not.toHaveProperty("details_url");
    expect(run.started).toBe(false);
  });

  it("an empty detailsUrl sends no details_url", async () => {
    const { calls, writer } = fakeWriter();
    await new CheckRun(writer, target({ detailsUrl: "" }), clock()).start();
    expect(calls[0]!.params).not.toHaveProperty("details_url");
  });

  it.each(["success", "neutral", "skipped", "cancelled", "failure"] as const)("passes the conclusion %s through", async (conclusion) => {
    const { calls, writer } = fakeWriter();
    await new CheckRun(writer, target(), clock()).complete(conclusion, { title: "t", summary: "s" });
    expect(calls[0]!.params.conclusion).toBe(conclusion);
  });

  const CUT = "\n\n… (cut: too long for a check run)";
  it.each<[string, number, number, string, string]>([
    ["a title of exactly 200 characters is kept", 200, 10, "t".repeat(200), "s".repeat(10)],
    ["a title of 201 characters is cut", 201, 10, `${"t".repeat(160)}${CUT}`, "s".repeat(10)],
    ["a summary of exactly 65,535 characters is kept", 5, CHECK_SUMMARY_LIMIT, "ttttt", "s".repeat(65_535)],
    ["a summary of 65,536 characters is cut", 5, CHECK_SUMMARY_LIMIT + 1, "ttttt", `${"s".repeat(65_535 - 40)}${CUT}`],
  ])("%s", async (_what, titleLength, summaryLength, title, summary) => {
    const { calls, writer } = fakeWriter();
    const run = new CheckRun(writer, target(), clock());
    await run.start();
    await run.complete("success", { title: "t".repeat(titleLength), summary: "s".repeat(summaryLength) });
    const output = calls[1]!.params.output as { title: string; summary: string };
    expect(output).toEqual({ title, summary });
    expect(output.title.length).toBeLessThanOrEqual(200);
    expect(output.summary.length).toBeLessThanOrEqual(CHECK_SUMMARY_LIMIT);
  });
});

describe("finaliseCheckRun", () => {
  const NOW = new Date("2024-05-06T08:00:00.000Z");
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const job = (o: Partial<JobRecord> = {}): JobRecord => ({
    id: "job-7",
    deliveryId: "delivery-7",
    kind: "review",
    state: "running",
    attempts: 1,
    createdAt: NOW.getTime() - 60_000,
    target: { installationId: 4242, owner: "o", repo: "r", number: 3, isPullRequest: true },
    trigger: { sender: "alice", request: "" },
    repo: { cloneUrl: "https://github.com/o/r.git", defaultBranch: "main", private: false },
    group: "review",
    review: {
      automatic: true,
      event: "synchronize",
      headSha: SHA,
      headRef: "feature",
      headRepo: "o/r",
      baseRef: "main",
      baseSha: "f".repeat(40),
      draft: false,
      labels: [],
      authorType: "User",
      eventAt: NOW.getTime() - 120_000,
    },
    ...o,
  });

  const services = () => {
    const asked: number[] = [];
    return {
      asked,
      services: {
        octokitFor: async (id: number) => {
          asked.push(id);
          return new TestOctokit({ auth: TOKEN }) as InstallationOctokit;
        },
        writerFor: (_id: number, octokit: InstallationOctokit) => new GitHubWriter({ octokit, minSpacingMs: 0 }),
      },
    };
  };

  const listRuns = (runs: Array<{ id: number; status: string; external_id: string | null }>, appId?: number) =>
    nock(API)
      .get(`/repos/o/r/commits/${SHA}/check-runs`)
      .query({ check_name: "crewbot/review", filter: "all", per_page: "100", ...(appId ? { app_id: String(appId) } : {}) })
      .reply(200, { total_count: runs.length, check_runs: runs });

  it("completes the job's in-progress run as a failure (interrupted)", async () => {
    listRuns([
      { id: 1, status: "completed", external_id: "job-7" },
      { id: 2, status: "in_progress", external_id: "job-6" },
      { id: 3, status: "in_progress", external_id: null },
      { id: 4, status: "in_progress", external_id: "job-7" },
      { id: 5, status: "queued", external_id: "job-7" },
    ]);
    const sent: unknown[] = [];
    nock(API)
      .patch("/repos/o/r/check-runs/4")
      .reply(200, (_uri, body) => {
        sent.push(body);
        return { id: 4 };
      });
    const { asked, services: s } = services();
    await finaliseCheckRun(job(), s);
    expect(asked).toEqual([4242]);
    expect(sent).toEqual([
      {
        status: "completed",
        conclusion: "failure",
        completed_at: "2024-05-06T08:00:00.000Z",
        output: { title: "Failed: interrupted", summary: "crewbot stopped while reviewing; the next push is reviewed again." },
      },
    ]);
  });

  it("asks only for this app's runs when the app id is known", async () => {
    listRuns([{ id: 4, status: "in_progress", external_id: "job-7" }], 31337);
    nock(API).patch("/repos/o/r/check-runs/4").reply(200, { id: 4 });
    await finaliseCheckRun(job(), { ...services().services, appId: 31337 });
  });

  it("a queued run of the job counts as not completed", async () => {
    listRuns([{ id: 9, status: "queued", external_id: "job-7" }]);
    nock(API).patch("/repos/o/r/check-runs/9").reply(200, { id: 9 });
    await finaliseCheckRun(job(), services().services);
  });

  it.each<[string, Array<{ id: number; status: string; external_id: string | null }>]>([
    ["no runs at all", []],
    ["only other jobs' runs", [{ id: 2, status: "in_progress", external_id: "job-6" }, { id: 3, status: "in_progress", external_id: null }]],
    ["the job's run is completed already", [{ id: 1, status: "completed", external_id: "job-7" }]],
    ["an id that only differs in case", [{ id: 1, status: "in_progress", external_id: "JOB-7" }]],
  ])("does nothing when there is %s", async (_what, runs) => {
    listRuns(runs);
    await finaliseCheckRun(job(), services().services);
  });

  it.each<[string, Partial<JobRecord>]>([
    ["a job without review", { kind: "plan", review: undefined }],
    ["a review without a headSha", { review: { ...job().review!, headSha: "" } }],
  ])("asks nothing of GitHub for %s", async (_what, o) => {
    const { asked, services: s } = services();
    await finaliseCheckRun(job(o), s);
    expect(asked).toEqual([]);
  });
});
