/**
 * Benches of the model requests (printed by `npm run bench`, never asserted):
 *  - cache: the share of input the API would read from its prompt cache over a 10-turn scout run
 *    in which every turn makes 8 parallel reads (cache-share.ts models the API's matching);
 *  - overload: a /plan chain (scout → planner) that meets a 60-second overload window (529s and
 *    an overloaded_error inside a stream) finishes; the extra time and requests it cost. Time is
 *    a simulated clock shared by the fake API (3 s per reply) and the retry policy, so the bench
 *    takes well under a second of real waiting.
 */
import { performance } from "node:perf_hooks";
import { BudgetTracker, DEFAULT_BUDGETS } from "../src/agent/budget.js";
import type { AgentEvent } from "../src/agent/events.js";
import { createClient } from "../src/agent/provider.js";
import type { ModelRetryPolicy } from "../src/agent/retry.js";
import { loadDefinitions } from "../src/chain/definitions.js";
import { runChain } from "../src/chain/run-chain.js";
import { makeJobDirs, newJobId } from "../src/jobs/job-dirs.js";
import { detectSandbox } from "../src/tools/sandbox.js";
import { startFakeAnthropic, type FakeReply, type RecordedRequest } from "../test/helpers/fake-anthropic.js";
import { makeRepo, tempDir } from "../test/helpers/git-repo.js";
import { cacheShare, withNewestMarkerOnly } from "./cache-share.js";

const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });

async function scoutOnly() {
  const { agents, chains } = await loadDefinitions();
  const plan = chains.get("plan")!;
  return { agents, plan, scout: { ...plan, steps: plan.steps.slice(0, 1) } };
}

/** 10 model requests, the first 9 each asking for 8 reads at once, against real tools and the bundled scout. */
async function cacheRun(turns: number, parallel: number): Promise<string> {
  const files: Record<string, string> = {};
  for (let t = 0; t < turns - 1; t++) {
    for (let k = 0; k < parallel; k++) files[`src/m${t}_${k}.ts`] = `export const m${t}_${k} = ${t * parallel + k};\n`.repeat(30);
  }
  const repo = await makeRepo(files);
  const script: FakeReply[] = [];
  for (let t = 0; t < turns - 1; t++) {
    script.push({ content: [{ type: "text", text: `Reading batch ${t}.` }, ...Array.from({ length: parallel }, (_, k) => use("read", { path: `src/m${t}_${k}.ts` }))] });
  }
  script.push({ text: "Scout report: the modules export constants." });
  const fake = await startFakeAnthropic(script);
  const dirs = await makeJobDirs(await tempDir("crewbot-bench-"), newJobId("bench"));
  const { agents, scout } = await scoutOnly();
  const result = await runChain({
    chain: scout,
    agents,
    task: "look around",
    mode: "read-only",
    trust: "trusted",
    workspace: { root: repo, artifactsDir: dirs.artifactsDir, scratchDir: dirs.scratchDir },
    sandbox: await detectSandbox(),
    budget: new BudgetTracker(DEFAULT_BUDGETS),
    client: createClient({ apiKey: "bench", baseURL: fake.url }),
  });
  await fake.close();
  if (!result.ok) throw new Error(`cache bench run failed: ${result.error}`);
  const bodies = fake.requests.map((r) => r.body);
  const share = cacheShare(bodies);
  const newestOnly = cacheShare(bodies.map(withNewestMarkerOnly));
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return `${pct(share.share)} of input bytes read from cache over a ${bodies.length}-request run with ${parallel} parallel tool results per turn ` +
    `(${share.cached} of ${share.total} bytes, the API's 20-block lookback) ${share.share >= 0.8 ? "✓" : "✗"}; ` +
    `with a marker on the newest message only: ${pct(newestOnly.share)}`;
}

export async function cacheBench(): Promise<string[]> {
  // 8 parallel calls add 17 blocks a turn, inside the lookback; 12 add 25, beyond it.
  return [`prompt cache (goal ≥ 80%): ${await cacheRun(10, 8)}`, `prompt cache, wider turns: ${await cacheRun(10, 12)}`];
}

/** A deterministic stand-in for Math.random, so the bench prints the same figures every run. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PLAN_SCRIPT: FakeReply[] = [
  { content: [use("read", { path: "README.md" }), use("ls", {})] },
  { content: [use("read", { path: "src/a.ts" })] },
  { content: [use("grep", { pattern: "export" })] },
  { text: "Scout report: one module, a README." },
  { content: [use("read", { path: "src/a.ts" })] },
  { text: "## Plan\n1. Add b next to a\n2. Mention b in the README" },
];

interface OverloadRun {
  simulatedMs: number;
  requests: number;
  waits: number;
  waitedMs: number;
  ok: boolean;
  error?: string;
}

/**
 * One /plan chain on the simulated clock. With `overload`, every request that arrives in the
 * window starting with the third request gets a 529 (the first of them an overloaded_error
 * event after some streamed text instead), until the window has passed.
 */
async function planRun(overloadMs: number): Promise<OverloadRun> {
  const REPLY_MS = 3000;
  let now = 0;
  let windowStart: number | undefined;
  let answered = 0;
  const script = (request: RecordedRequest): FakeReply | undefined => {
    const arrival = now;
    if (overloadMs > 0 && request.index === 2) windowStart = arrival;
    if (windowStart !== undefined && arrival < windowStart + overloadMs) {
      if (arrival === windowStart) {
        now += 1000; // some text streamed before the error
        return { text: "I will now read", streamError: { type: "overloaded_error", message: "Overloaded", afterEvents: 3 } };
      }
      now += 200; // a 529 comes back at once
      return { error: { status: 529, message: "Overloaded" } };
    }
    now += REPLY_MS;
    return PLAN_SCRIPT[answered++];
  };
  const fake = await startFakeAnthropic(script);
  const retry: Partial<ModelRetryPolicy> = {
    now: () => now,
    random: seeded(7),
    sleep: async (ms, signal) => {
      if (signal.aborted) throw signal.reason;
      now += ms;
    },
  };
  const repo = await makeRepo({ "README.md": "# demo\n", "src/a.ts": "export const a = 1;\n" });
  const dirs = await makeJobDirs(await tempDir("crewbot-bench-"), newJobId("bench"));
  const { agents, plan } = await scoutOnly();
  const events: AgentEvent[] = [];
  const result = await runChain({
    chain: plan,
    agents,
    task: "add b",
    mode: "read-only",
    trust: "trusted",
    workspace: { root: repo, artifactsDir: dirs.artifactsDir, scratchDir: dirs.scratchDir },
    sandbox: await detectSandbox(),
    budget: new BudgetTracker(DEFAULT_BUDGETS),
    client: createClient({ apiKey: "bench", baseURL: fake.url, retry }),
    emit: (e) => events.push(e),
  });
  await fake.close();
  const waits = events.flatMap((e) => (e.type === "model_wait" ? [e.waitMs] : []));
  return {
    simulatedMs: now,
    requests: fake.requests.length,
    waits: waits.length,
    waitedMs: waits.reduce((a, b) => a + b, 0),
    ok: result.ok,
    ...(result.ok ? {} : { error: result.error }),
  };
}

export async function overloadBench(): Promise<string[]> {
  const started = performance.now();
  const calm = await planRun(0);
  const stormy = await planRun(60_000);
  const realMs = performance.now() - started;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return [
    `overload: a /plan job meeting a 60 s overload window (529s, one overloaded_error mid-stream) ` +
      `${stormy.ok ? "finished ✓" : `failed ✗ (${stormy.error})`}: +${s(stormy.simulatedMs - calm.simulatedMs)} of simulated wall time ` +
      `(${s(calm.simulatedMs)} → ${s(stormy.simulatedMs)}, ${stormy.waits} waits totalling ${s(stormy.waitedMs)}), ` +
      `+${stormy.requests - calm.requests} model requests (${calm.requests} → ${stormy.requests}); ${realMs.toFixed(0)} ms of real time`,
  ];
}
