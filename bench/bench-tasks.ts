/**
 * `npm run bench:tasks`: crewbot's `implement` chain and a bash-only baseline on the same real
 * tasks (bench/tasks/) and the same model, side by side. With ANTHROPIC_API_KEY it uses the model;
 * without one (or with `--player oracle|null`) it runs the scripted oracle and null players on the
 * fake Anthropic server, which must score 100 % and 0 % — the instrument's own check.
 * `--check` verifies the task set instead (hidden tests fail on each start, pass with the reference).
 */
import path from "node:path";
import { hasModelAccess } from "../src/agent/provider.js";
import { loadDefinitions } from "../src/chain/definitions.js";
import { commandsRefusal, sandboxFor } from "../src/tools/sandbox-policy.js";
import { checkTasks } from "./tasks/check.js";
import { runSuite, type Attempt } from "./tasks/run-suite.js";
import { runScriptedSuite, SCRIPTED_PLAYERS, type ScriptedPlayer } from "./tasks/scripted-players.js";
import { renderSummary, summarise } from "./tasks/summary.js";
import { loadTasks, TASKS_DIR } from "./tasks/task-set.js";
import { runBench, suiteOptions, writeResults } from "./suite-options.js";

const RESULTS_DIR = path.join(TASKS_DIR, "..", "results");
const USAGE = `npm run bench:tasks -- [--tasks a,b] [--runs N] [--model id] [--concurrency N] [--player oracle|null]
                        [--max-turns N] [--max-cost USD] [--max-minutes N] [--timeout-minutes N] [--out file.json]
                        [--tarballs dir] [--check]`;

function options() {
  const o = suiteOptions({ tasks: { type: "string" } }, RESULTS_DIR);
  if (o.player !== undefined && !SCRIPTED_PLAYERS.includes(o.player as ScriptedPlayer)) throw new Error(`--player takes oracle or null, got "${o.player}"`);
  const tasks = o.values.tasks as string | undefined;
  return { ...o, tasks: tasks?.split(",").map((t) => t.trim()).filter(Boolean), player: o.player as ScriptedPlayer | undefined };
}

async function main(): Promise<number> {
  const opts = options();
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  const tasks = await loadTasks(opts.tasks);
  const sandbox = await sandboxFor(process.env);
  const refusal = commandsRefusal(sandbox, { network: false });
  if (refusal) throw new Error(`${refusal.reason}. ${refusal.remedy}`);

  if (opts.check) {
    const checks = await checkTasks(tasks, opts.tarballs, sandbox, (c) => console.log(`${c.ok ? "✓" : "✗"} ${c.task}${c.ok ? "" : `\n  ${c.problems.join("\n  ")}`}`));
    const bad = checks.filter((c) => !c.ok).length;
    console.log(bad === 0 ? `all ${checks.length} tasks check out` : `${bad} of ${checks.length} tasks are broken`);
    return bad === 0 ? 0 : 1;
  }

  const worker = (await loadDefinitions()).agents.get("worker");
  const model = opts.model ?? worker?.model;
  if (!model) throw new Error("no model: pass --model");
  const scripted = opts.player !== undefined || !hasModelAccess(process.env);
  // Without bubblewrap a model's commands could read this repository, hidden tests included.
  if (!scripted && !sandbox.available) throw new Error(`a model run needs the OS sandbox (${sandbox.reason ?? "not available"}): without it an agent could read the hidden tests`);
  if (scripted && opts.player === undefined) console.log("ANTHROPIC_API_KEY is not set: running the scripted oracle and null players on the fake Anthropic server.\n");
  const players: Array<ScriptedPlayer | "model"> = scripted ? (opts.player ? [opts.player] : [...SCRIPTED_PLAYERS]) : ["model"];
  const suite = { tasks, runs: opts.runs, model, budgets: opts.budgets, concurrency: opts.concurrency, timeoutMs: opts.timeoutMs, sandbox, tarballCache: opts.tarballs, env: process.env };
  const onAttempt = (a: Attempt) => console.error(`  ${a.task} run ${a.run} ${a.scaffold}: ${a.resolved ? "resolved" : "not resolved"} (${a.status}, ${(a.wallMs / 1000).toFixed(1)}s)`);

  const reports = [];
  let expectationsMet = true;
  for (const player of players) {
    const { attempts } =
      player === "model"
        ? await runSuite({ ...suite, apiKey: process.env.ANTHROPIC_API_KEY!, baseURL: process.env.ANTHROPIC_BASE_URL, onAttempt })
        : await runScriptedSuite(player, { ...suite, onAttempt });
    const summary = summarise(attempts);
    const title = player === "model" ? `${model}, ${tasks.length} tasks × ${opts.runs} run(s)` : `scripted ${player} player (fake Anthropic server), ${tasks.length} tasks`;
    console.log(`\n${renderSummary(summary, title)}`);
    if (player !== "model") {
      const want = player === "oracle" ? 1 : 0;
      const met = summary.totals.crewbot.resolveRate === want && summary.totals.baseline.resolveRate === want;
      expectationsMet &&= met;
      console.log(`${met ? "✓" : "✗"} the ${player} player must resolve ${want * 100}% for both scaffolds`);
    }
    reports.push({ player, model, summary, attempts });
  }
  await writeResults(opts.out, RESULTS_DIR, "tasks", { startedAt: new Date().toISOString(), budgets: opts.budgets, runs: opts.runs, tasks: tasks.map((t) => ({ id: t.id, package: `${t.package}@${t.version}`, licence: t.licence, origin: t.origin })), reports });
  return expectationsMet ? 0 : 1;
}

runBench("bench:tasks", main);
