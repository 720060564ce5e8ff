import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../../src/agent/budget.js";
import { sandboxFor } from "../../src/tools/sandbox-policy.js";
import type { SandboxInfo } from "../../src/tools/types.js";
import { checkTask, leaksOf } from "../../bench/tasks/check.js";
import { runSuite, type Attempt } from "../../bench/tasks/run-suite.js";
import { startFakeAnthropic, type FakeReply } from "../helpers/fake-anthropic.js";
import { runScriptedSuite, type ScriptedPlayer } from "../../bench/tasks/scripted-players.js";
import { renderSummary, summarise } from "../../bench/tasks/summary.js";
import { loadTasks, type Materialised, type Task } from "../../bench/tasks/task-set.js";

// Two small packages; their tarballs come from the registry once and are reused (integrity checked).
const TASKS = ["escape-html", "ms"];
const TARBALLS = path.join(os.tmpdir(), "crewbot-bench-tarballs");

let tasks: Task[];
let sandbox: SandboxInfo;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  tasks = await loadTasks(TASKS);
  const found = await sandboxFor(process.env);
  // Where bubblewrap cannot run, the scripted players' commands (ours, not a model's) may run without it.
  env = found.available ? { ...process.env } : { ...process.env, CREWBOT_ALLOW_UNSANDBOXED: "1" };
  sandbox = found.available ? found : { ...found, allowUnsandboxed: true };
});

async function play(player: ScriptedPlayer, onMaterialised?: (task: Task, m: Materialised) => Promise<void>) {
  return runScriptedSuite(player, {
    onMaterialised,
    tasks,
    runs: 1,
    model: "claude-sonnet-5-5",
    budgets: DEFAULT_BUDGETS,
    concurrency: 2,
    timeoutMs: 120_000,
    sandbox,
    tarballCache: TARBALLS,
    env,
  });
}

const byKey = (attempts: Attempt[]) => Object.fromEntries(attempts.map((a) => [`${a.task}/${a.scaffold}`, a.resolved]));

describe("bench:tasks on the fake Anthropic server", () => {
  it("the oracle resolves every task with both scaffolds, and nothing of the answer is in a checkout or a prompt", async () => {
    const leaks: Record<string, string[]> = {};
    const { attempts, requests, materialised } = await play("oracle", async (task, m) => {
      leaks[task.id] = await leaksOf(task, m);
    });
    expect(leaks).toEqual({ "escape-html": [], ms: [] });
    expect(byKey(attempts)).toEqual({ "escape-html/crewbot": true, "escape-html/baseline": true, "ms/crewbot": true, "ms/baseline": true });
    expect(attempts.every((a) => a.status === "done" && a.turns > 0 && a.costUsd > 0)).toBe(true);
    expect(summarise(attempts).totals.crewbot.resolveRate).toBe(1);

    for (const task of tasks) {
      const m = materialised.get(task.id)!;
      const hiddenLines = [...task.hidden.values()].flatMap((s) => s.split("\n")).filter((l) => l.includes("assert."));
      const referenceLines = m.reference.split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++") && l.trim().length > 4);
      for (const r of requests) {
        const body = JSON.stringify(r.body);
        for (const line of hiddenLines) expect(body).not.toContain(JSON.stringify(line).slice(1, -1));
        // The reference reaches only the scripted replies (assistant turns), never what an agent is given.
        const given = JSON.stringify([r.body.system, r.body.messages.filter((msg: { role: string }) => msg.role === "user")]);
        for (const line of referenceLines) expect(given).not.toContain(JSON.stringify(line.slice(1)).slice(1, -1));
      }
    }
    // Both scaffolds and all three crewbot agents were played.
    const systems = requests.map((r) => JSON.stringify(r.body.system));
    for (const who of ["scout", "planner", "worker"]) expect(systems.some((s) => s.includes(`You are the ${who} of crewbot`))).toBe(true);
    expect(systems.some((s) => s.includes("working in a shell"))).toBe(true);
  }, 120_000);

  it("the null player resolves none", async () => {
    const { attempts } = await play("null");
    expect(byKey(attempts)).toEqual({ "escape-html/crewbot": false, "escape-html/baseline": false, "ms/crewbot": false, "ms/baseline": false });
    expect(attempts.every((a) => a.status === "done")).toBe(true);
  }, 120_000);

  it.each<[string, FakeReply, number, RegExp]>([
    ["a model that never answers in time", { text: "late", delay: 30_000 }, 1_500, /^timeout$/],
    ["a model endpoint that refuses every request", { error: { status: 400, message: "bench test: refused" } }, 60_000, /^crash: .*bench test: refused/],
  ])("%s: both scaffolds are not resolved and the runs are listed", async (_name, reply, timeoutMs, status) => {
    const fake = await startFakeAnthropic(() => reply);
    try {
      const { attempts } = await runSuite({ tasks: [tasks[1]!], runs: 1, model: "claude-sonnet-5-5", budgets: DEFAULT_BUDGETS, concurrency: 2, timeoutMs, sandbox, tarballCache: TARBALLS, env, apiKey: "k", baseURL: fake.url });
      expect(attempts.map((a) => [a.scaffold, a.resolved])).toEqual([["crewbot", false], ["baseline", false]]);
      for (const a of attempts) expect(a.status).toMatch(status);
      expect(summarise(attempts).failures.map((f) => f.scaffold)).toEqual(["crewbot", "baseline"]);
    } finally {
      await fake.close();
    }
  }, 60_000);

  it("holds both scaffolds to the same turn budget", async () => {
    const fake = await startFakeAnthropic(() => ({ content: [{ type: "tool_use", name: "bash", input: { command: "ls" } }] }));
    try {
      const budgets = { ...DEFAULT_BUDGETS, maxTurns: 3 };
      const { attempts } = await runSuite({ tasks: [tasks[1]!], runs: 1, model: "claude-sonnet-5-5", budgets, concurrency: 2, timeoutMs: 60_000, sandbox, tarballCache: TARBALLS, env, apiKey: "k", baseURL: fake.url });
      expect(attempts.map((a) => [a.scaffold, a.status, a.turns, a.resolved])).toEqual([
        ["crewbot", "stopped: maxTurns", 3, false],
        ["baseline", "stopped: maxTurns", 3, false],
      ]);
    } finally {
      await fake.close();
    }
  }, 60_000);

  it("checks a task: its hidden tests fail on the start and pass with the reference change", async () => {
    const check = await checkTask(tasks[0]!, TARBALLS);
    expect(check).toEqual({ task: "escape-html", ok: true, problems: [] });
  }, 60_000);

  it("refuses a task whose hidden tests pass at its start or fail with the reference change", async () => {
    const withTest = (source: string): Task => ({ ...tasks[0]!, hidden: new Map([["x.test.mjs", `import { test } from 'node:test';\n${source}\n`]]) });
    const passing = await checkTask(withTest("test('always', () => {});"), TARBALLS);
    expect(passing.problems).toEqual(["the hidden tests pass on the task's start"]);
    const failing = await checkTask(withTest("test('never', () => { throw new Error('no'); });"), TARBALLS);
    expect(failing.ok).toBe(false);
    expect(failing.problems[0]).toMatch(/^the hidden tests fail with the reference change/);
  }, 60_000);
});

describe("the bench's summary", () => {
  const a = (task: string, scaffold: "crewbot" | "baseline", run: number, resolved: boolean, status = "done"): Attempt => ({
    task,
    run,
    scaffold,
    status,
    resolved,
    costUsd: scaffold === "crewbot" ? 0.4 : 0.2,
    costEstimate: false,
    turns: 10,
    wallMs: scaffold === "crewbot" ? 60_000 : 30_000,
  });
  const attempts = [
    a("t1", "crewbot", 1, true),
    a("t1", "baseline", 1, true),
    a("t2", "crewbot", 1, false, "timeout"),
    a("t2", "baseline", 1, false),
    a("t1", "crewbot", 2, true),
    a("t1", "baseline", 2, false, "crash: boom"),
    a("t2", "crewbot", 2, true),
    a("t2", "baseline", 2, false),
  ];

  it("reports rates with the spread over runs, $/task, s/task, their ratios, and the timeouts and crashes", () => {
    const s = summarise(attempts);
    expect(s.totals.crewbot).toMatchObject({ resolveRate: 0.75, spread: { min: 0.5, max: 1 }, usdPerTask: 0.4, secondsPerTask: 60 });
    expect(s.totals.baseline).toMatchObject({ resolveRate: 0.25, spread: { min: 0, max: 0.5 }, usdPerTask: 0.2, secondsPerTask: 30 });
    expect(s.ratios).toEqual({ resolveRate: 3, usdPerTask: 2, secondsPerTask: 2 });
    expect(s.failures).toEqual([
      { task: "t2", run: 1, scaffold: "crewbot", status: "timeout" },
      { task: "t1", run: 2, scaffold: "baseline", status: "crash: boom" },
    ]);
    const text = renderSummary(s, "demo");
    expect(text).toContain("| t1   | 2/2");
    expect(text).toContain("crewbot ÷ baseline: resolve rate 3.00×, $/task 2.00×, s/task 2.00×");
    expect(text).toContain("- t2 run 1 crewbot: timeout");
  });

  it("says n/a for a ratio over a baseline figure of zero", () => {
    const s = summarise([a("t", "crewbot", 1, true), { ...a("t", "baseline", 1, false), costUsd: 0 }]);
    expect(s.ratios.resolveRate).toBeUndefined();
    expect(renderSummary(s, "x")).toContain("resolve rate n/a");
  });
});
