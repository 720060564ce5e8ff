/**
 * plan-wide vs plan (printed by `npm run bench`, never asserted): wall time of each chain against a
 * fake model that takes 1 s per reply. Every scout reads a file, then reports (2 replies); the
 * planner submits its plan (1 reply). Goal: plan-wide's two scouts, running at once, cost about
 * one scout's time, so the ratio stays near 1.
 */
import { performance } from "node:perf_hooks";
import { BudgetTracker, DEFAULT_BUDGETS } from "../src/agent/budget.js";
import { createClient } from "../src/agent/provider.js";
import { loadDefinitions } from "../src/chain/definitions.js";
import { runChain } from "../src/chain/run-chain.js";
import { makeJobDirs, newJobId } from "../src/jobs/job-dirs.js";
import { startFakeAnthropic, type FakeReply, type RecordedRequest } from "../test/helpers/fake-anthropic.js";
import { makeRepo, tempDir } from "../test/helpers/git-repo.js";

const REPLY_MS = 1000;

function reply(request: RecordedRequest): FakeReply {
  const first = JSON.stringify(request.body.messages[0]);
  if (first.includes("submit_plan")) {
    return { delay: REPLY_MS, content: [{ type: "tool_use", name: "submit_plan", input: { goal: "Add c.", steps: ["Add src/c.ts"] } }] };
  }
  if (request.body.messages.length === 1) return { delay: REPLY_MS, content: [{ type: "tool_use", name: "read", input: { path: "README.md" } }] };
  return { delay: REPLY_MS, text: "Scout report: README.md is the only file." };
}

async function timeChain(name: string): Promise<{ ms: number; requests: number }> {
  const fake = await startFakeAnthropic(reply);
  const root = await makeRepo({ "README.md": "# demo\n" });
  const dirs = await makeJobDirs(await tempDir("crewbot-bench-"), newJobId("bench"));
  const { agents, chains } = await loadDefinitions();
  const started = performance.now();
  const result = await runChain({
    chain: chains.get(name)!,
    agents,
    task: "add c",
    mode: "read-only",
    trust: "trusted",
    workspace: { root, artifactsDir: dirs.artifactsDir, scratchDir: dirs.scratchDir },
    sandbox: { available: false, reason: "bench: no commands needed" },
    budget: new BudgetTracker(DEFAULT_BUDGETS),
    client: createClient({ apiKey: "bench", baseURL: fake.url }),
  });
  const ms = performance.now() - started;
  await fake.close();
  if (!result.ok) throw new Error(`bench ${name} failed: ${result.error}`);
  return { ms, requests: fake.requests.length };
}

export async function planWideBench(): Promise<string> {
  const plan = await timeChain("plan");
  const wide = await timeChain("plan-wide");
  const ratio = wide.ms / plan.ms;
  return (
    `plan-wide vs plan, fake model at ${REPLY_MS / 1000} s per reply: plan (1 scout) ${(plan.ms / 1000).toFixed(2)} s / ${plan.requests} requests, ` +
    `plan-wide (2 scouts in parallel) ${(wide.ms / 1000).toFixed(2)} s / ${wide.requests} requests = ${ratio.toFixed(2)}× (goal ≤ 1.2×) ${ratio <= 1.2 ? "✓" : "✗"}`
  );
}
