/**
 * `npm run bench`: figures for the agent runtime, printed, never asserted.
 *  - orchestration overhead of a 3-agent chain with 20 tool calls against an instant fake model
 *  - the prompt-cache share over a 10-turn run of 8 parallel reads a turn, and a job through a 60 s overload (bench/model.ts)
 *  - checkout, and the app's figures (bench/app.ts): webhook latency, jobs' writes, an automatic review
 *  - throughput of 200 queued /plan jobs, embedded vs Redis with 1, 2 and 4 worker processes across installations (speed-up, goal ≥ 3.5× at 4), and peak RSS (bench/throughput.ts)
 *  - edits of one progress comment over a 30-minute job, and one installation's writes with 8 jobs at once (bench/progress.ts)
 *  - a failed check suite on crewbot's PR → the ci-fix worker's first model request, with a 5 MB log (bench/ci-fix.ts)
 *  - three workflows failing 0, 90 and 180 s apart on one head → ci-fix rounds used, virtual clock (bench/ci-fix-head.ts)
 *  - plan-wide (two scouts in parallel) against plan, with a fake model at 1 s per reply (bench/plan-wide.ts)
 *  - a question's answer (a ticked option) → the paused planner's next model request (bench/ask-resume.ts)
 *  - `/ask` on a 50 MB repository → the answer posted, warm mirror, instant model (bench/ask-answer.ts)
 *  - a 40-package npm bump → the review with its dependency facts, cold and warm tarball cache, instant model (bench/deps.ts)
 *  - 40 /plan jobs on one installation: through 2 and 4 gates on a virtual clock (bench/shared-budget.ts), and through 2 and 4 real worker processes (bench/budget-workers.ts, real minutes)
 * `BENCH_ONLY=review` (comma-separated: chain, cache, overload, checkout, ack, plan, implement, review, throughput, edits, ci-fix, ci-fix-head, plan-wide, ask, ask-answer, deps, shared-budget, budget-workers) runs only those.
 */
import { performance } from "node:perf_hooks";
import { BudgetTracker, DEFAULT_BUDGETS } from "../src/agent/budget.js";
import { createClient } from "../src/agent/provider.js";
import { loadDefinitions } from "../src/chain/definitions.js";
import { runChain } from "../src/chain/run-chain.js";
import { makeJobDirs, newJobId } from "../src/jobs/job-dirs.js";
import { detectSandbox } from "../src/tools/sandbox.js";
import { addWorktree, removeWorktree } from "../src/workspace/worktree.js";
import { startFakeAnthropic, type FakeReply } from "../test/helpers/fake-anthropic.js";
import { makeRepo, tempDir } from "../test/helpers/git-repo.js";
import { benchApp } from "./app-figures.js";
import { ciFixBench } from "./ci-fix.js";
import { ciFixHeadBench } from "./ci-fix-head.js";
import { checkoutBench } from "./checkout.js";
import { cacheBench, overloadBench } from "./model.js";
import { askAnswerBench } from "./ask-answer.js";
import { askResumeBench } from "./ask-resume.js";
import { depsBench } from "./deps.js";
import { budgetWorkersBench } from "./budget-workers.js";
import { planWideBench } from "./plan-wide.js";
import { progressBench } from "./progress.js";
import { selected } from "./only.js";
import { sharedBudgetBench } from "./shared-budget.js";
import { throughputBench } from "./throughput.js";

const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });

/** 20 tool calls over 3 agents: scout 7, planner 6, worker 7 — reads run concurrently, writes in order. */
const CHAIN_SCRIPT: FakeReply[] = [
  { content: [use("read", { path: "README.md" }), use("ls", {}), use("grep", { pattern: "export" })] },
  { content: [use("find", { pattern: "src/**/*.ts" }), use("read", { path: "src/a.ts" })] },
  { content: [use("read", { path: "src/b.ts" }), use("bash", { command: "wc -l src/*.ts" })] },
  { text: "Scout report: two modules." },
  { content: [use("read", { path: "src/a.ts" }), use("read", { path: "src/b.ts" }), use("grep", { pattern: "b" })] },
  { content: [use("ls", { path: "src" }), use("find", { pattern: "**/*.md" }), use("read", { path: "README.md" })] },
  { text: "## Plan\n1. Add c\n2. Update a\n3. Check" },
  { content: [use("write", { path: "src/c.ts", content: "export const c = 3;\n" })] },
  { content: [use("edit", { path: "src/a.ts", oldText: "export const a = 1;", newText: "export const a = 1; // see c" })] },
  { content: [use("bash", { command: "cat src/c.ts" }), use("read", { path: "src/c.ts" })] },
  { content: [use("write", { path: "src/d.ts", content: "export const d = 4;\n" }), use("edit", { path: "README.md", oldText: "demo", newText: "demo app" })] },
  { content: [use("bash", { command: "ls src" })] },
  { text: "[DONE:1]\n[DONE:2]\n[DONE:3]\n## Completed\nAll.\n## Files Changed\n- src/c.ts\n## Notes\nNone." },
];

async function chainOnce(): Promise<{ ms: number; toolCalls: number; requests: number }> {
  const fake = await startFakeAnthropic(CHAIN_SCRIPT);
  const repo = await makeRepo({ "README.md": "# demo\n", "src/a.ts": "export const a = 1;\n", "src/b.ts": "export const b = 2;\n" });
  const dirs = await makeJobDirs(await tempDir("crewbot-bench-"), newJobId("bench"));
  const worktree = await addWorktree(repo, dirs.workDir, "checkout");
  const { agents, chains } = await loadDefinitions();
  let toolCalls = 0;
  const started = performance.now();
  const result = await runChain({
    chain: chains.get("implement")!,
    agents,
    task: "add c",
    mode: "write",
    trust: "trusted",
    workspace: { root: worktree.path, artifactsDir: dirs.artifactsDir, scratchDir: dirs.scratchDir },
    sandbox: await detectSandbox(),
    budget: new BudgetTracker(DEFAULT_BUDGETS),
    client: createClient({ apiKey: "bench", baseURL: fake.url }),
    emit: (e) => {
      if (e.type === "tool_end") {
        toolCalls += 1;
        if (!e.ok) console.warn(`  tool ${e.name} failed: ${e.output.slice(0, 200)}`);
      }
    },
  });
  const ms = performance.now() - started;
  await removeWorktree(repo, worktree.path);
  await fake.close();
  if (!result.ok) throw new Error(`bench chain failed: ${result.error}`);
  return { ms, toolCalls, requests: fake.requests.length };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  if (selected("chain")) {
    await chainOnce(); // warm-up: module loading, first bwrap start
    const runs = [];
    for (let i = 0; i < 5; i++) runs.push(await chainOnce());
    const ms = median(runs.map((r) => r.ms));
    console.log(
      `chain overhead: 3 agents, ${runs[0]!.toolCalls} tool calls, ${runs[0]!.requests} model requests, instant fake model: ` +
        `median ${ms.toFixed(0)} ms over ${runs.length} runs (goal < 2000 ms) ${ms < 2000 ? "✓" : "✗"}`,
    );
  }

  if (selected("cache")) for (const line of await cacheBench()) console.log(line);

  if (selected("overload")) for (const line of await overloadBench()) console.log(line);

  if (selected("checkout")) {
    const co = await checkoutBench();
    console.log(
      `checkout: ${(co.repoBytes / 1024 ** 2).toFixed(0)} MB repository, fresh git clone vs. mirror sync + checkout (medians of 3): ` +
        `loopback ${co.loopback.cloneMs.toFixed(0)} vs ${co.loopback.mirrorMs.toFixed(0)} ms = ${co.loopback.ratio.toFixed(1)}× ${co.loopback.ratio >= 10 ? "✓" : "✗"}, ` +
        `100 Mbit/s + 20 ms per request ${co.link.cloneMs.toFixed(0)} vs ${co.link.mirrorMs.toFixed(0)} ms = ${co.link.ratio.toFixed(1)}× ${co.link.ratio >= 10 ? "✓" : "✗"} (goal ≥ 10×)`,
    );
  }

  for (const line of await benchApp()) console.log(line);

  if (selected("throughput")) for (const line of await throughputBench()) console.log(line);

  if (selected("edits")) for (const line of await progressBench()) console.log(line);

  if (selected("ci-fix")) console.log(await ciFixBench());
  if (selected("ci-fix-head")) console.log(await ciFixHeadBench());

  if (selected("plan-wide")) console.log(await planWideBench());
  if (selected("ask")) console.log(await askResumeBench());
  if (selected("ask-answer")) console.log(await askAnswerBench());
  if (selected("deps")) console.log(await depsBench());
  if (selected("shared-budget")) console.log((await sharedBudgetBench()).join("\n"));
  if (selected("budget-workers")) console.log((await budgetWorkersBench()).join("\n"));
}

await main();
