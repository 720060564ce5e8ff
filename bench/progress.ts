/**
 * The progress comment's cadence and the installation's write budget, on simulated time (a fake
 * clock: half an hour of job runs in well under a second), printed by `npm run bench`
 * (`BENCH_ONLY=edits` alone):
 *  - edits of one progress comment for a 30-minute job with a steady stream of agent events (an
 *    event every 2 s, the job runner's 15 s clock tick besides): goal ≤ 180, with the smallest gap
 *  - GitHub writes per installation in any minute with 8 such jobs at once on one installation
 *    (goal ≤ 60; GitHub's limit is 80), the writes in the busiest hour (GitHub's limit is 500), and
 *    how long the 8 final edits waited for the writer
 * The real reporter, writer and gate run; only GitHub (an Octokit that records each request) and
 * the clock are stand-ins.
 */
import type { AgentEvent } from "../src/agent/events.js";
import { GitHubWriter, WriteGate, type Clock, type OctokitLike } from "../src/report/github-writer.js";
import { ProgressReporter } from "../src/report/progress-reporter.js";
import { initialProgress, progressFromEvents } from "../src/report/progress-state.js";

/** Simulated time: sleepers wake in time order, and each wake lets the promises it settles run first. */
class SimClock implements Clock {
  private t = 0;
  private sleepers: Array<{ at: number; seq: number; wake: () => void }> = [];
  private seq = 0;
  now = () => this.t;
  sleep = (ms: number) => new Promise<void>((wake) => this.sleepers.push({ at: this.t + Math.max(0, ms), seq: this.seq++, wake }));

  /** Runs until `until` (ms) or until nothing sleeps any more. */
  async run(until: number): Promise<void> {
    for (;;) {
      await settle();
      if (this.sleepers.length === 0) return;
      this.sleepers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.sleepers[0]!;
      if (next.at > until) return;
      this.sleepers.shift();
      this.t = Math.max(this.t, next.at);
      next.wake();
    }
  }
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

interface Sent {
  route: string;
  at: number;
  commentId?: number;
}

/** GitHub as far as the writer sees it: every request recorded with its simulated time, answered at once. */
function recordingOctokit(clock: SimClock, sent: Sent[]): OctokitLike {
  let ids = 1000;
  return {
    request: async (route, params) => {
      sent.push({ route, at: clock.now(), commentId: params?.comment_id as number | undefined });
      return { status: route.startsWith("POST") ? 201 : 200, headers: {}, data: { id: ids++ } };
    },
  };
}

const MINUTE = 60_000;
const JOB_MS = 30 * MINUTE;
const EVENT_EVERY_MS = 2000;

/** The agent events of a busy job: turns, tool calls and usage, one every EVENT_EVERY_MS. */
function eventAt(i: number): AgentEvent {
  const kind = i % 3;
  if (kind === 0) return { type: "turn_start", agent: "worker", turn: i };
  if (kind === 1) return { type: "tool_start", agent: "worker", id: `t${i}`, name: "read", args: `src/file${i}.ts` };
  return { type: "usage", agent: "worker", usage: { input: 1000, output: 200, cacheRead: 0, cacheWrite: 0 }, costUsd: 0.001, estimate: false };
}

interface JobRun {
  finishAskedAt?: number;
  reporter: ProgressReporter;
}

/** One job: 👀, the progress comment, events for `durationMs`, then the final edit. */
async function runJob(clock: SimClock, writer: GitHubWriter, n: number, durationMs: number, run: JobRun[]): Promise<void> {
  const reporter = new ProgressReporter({ writer, target: { owner: "o", repo: "r", number: n }, jobId: `job-${n}`, clock });
  const entry: JobRun = { reporter };
  run.push(entry);
  const progress = progressFromEvents(initialProgress(`job-${n}`, "implement"), { clock, startedAt: clock.now() });
  await reporter.acknowledge({ commentId: 10 + n, kind: "issue_comment" });
  await reporter.start(progress.state);
  const started = clock.now();
  for (let i = 0; clock.now() - started < durationMs; i++) {
    await clock.sleep(EVENT_EVERY_MS);
    reporter.update(progress.apply(eventAt(i)));
  }
  entry.finishAskedAt = clock.now();
  await reporter.finish(progress.set({ terminal: { kind: "done" } }));
}

/** The most requests in any window of `windowMs`. */
function busiest(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; j < sorted.length; j++) {
    while (sorted[j]! - sorted[i]! >= windowMs) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

async function oneJob(): Promise<string> {
  const clock = new SimClock();
  const sent: Sent[] = [];
  const writer = new GitHubWriter({ octokit: recordingOctokit(clock, sent), gate: new WriteGate(1000, clock) });
  const runs: JobRun[] = [];
  const done = runJob(clock, writer, 1, JOB_MS, runs);
  await clock.run(JOB_MS + 10 * MINUTE);
  await done;
  const edits = sent.filter((s) => s.route.startsWith("PATCH"));
  const progressEdits = edits.slice(0, -1); // the last is the final edit
  const gaps = progressEdits.slice(1).map((e, i) => e.at - progressEdits[i]!.at);
  const smallest = gaps.length > 0 ? Math.min(...gaps) : 0;
  const ok = progressEdits.length <= 180;
  return (
    `progress comment, one 30-minute job, an agent event every ${EVENT_EVERY_MS / 1000} s: ${progressEdits.length} edits (goal ≤ 180) ${ok ? "✓" : "✗"}, ` +
    `smallest gap ${(smallest / 1000).toFixed(1)} s, plus the post and the final edit`
  );
}

async function eightJobs(): Promise<string> {
  const clock = new SimClock();
  const sent: Sent[] = [];
  const gate = new WriteGate(1000, clock); // one per installation, as compose.ts shares it
  const runs: JobRun[] = [];
  // Eight jobs started together, ending a minute apart from 30 minutes on: their final edits land
  // while the others still stream progress.
  const octokit = recordingOctokit(clock, sent); // one installation: comment ids are unique across its jobs
  const jobs = Array.from({ length: 8 }, (_, i) => runJob(clock, new GitHubWriter({ octokit, gate }), i + 1, JOB_MS + i * MINUTE, runs));
  await clock.run(JOB_MS + 20 * MINUTE);
  await Promise.all(jobs);
  const times = sent.map((s) => s.at);
  const perMinute = busiest(times, MINUTE);
  const perHour = busiest(times, 60 * MINUTE);
  const finals = runs.map((r) => {
    const id = r.reporter.commentId;
    const final = sent.filter((s) => s.commentId === id && s.route.startsWith("PATCH")).at(-1)!;
    return final.at - r.finishAskedAt!;
  });
  const edits = runs.map((r) => r.reporter.edits);
  return (
    `write budget, 8 jobs at once on one installation: at most ${perMinute} writes in any minute (goal ≤ 60, GitHub's limit 80) ${perMinute <= 60 ? "✓" : "✗"}, ` +
    `${perHour} in the busiest hour (GitHub's limit 500) ${perHour < 500 ? "✓" : "✗"}; ` +
    `final edits waited ${(Math.min(...finals) / 1000).toFixed(1)}–${(Math.max(...finals) / 1000).toFixed(1)} s; ` +
    `progress edits per job ${Math.min(...edits)}–${Math.max(...edits)}`
  );
}

export async function progressBench(): Promise<string[]> {
  return [await oneJob(), await eightJobs()];
}
