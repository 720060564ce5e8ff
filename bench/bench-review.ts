/**
 * `npm run bench:review`: how often review findings are right. crewbot's reviewer with `prove` on
 * and off and a one-pass baseline (diff in, findings out, no tools) with the same model review
 * the same pull requests (bench/review/: buggy ones with the bug's lines as ground truth, clean
 * ones that deserve no critical or warning finding); recall, precision, F1, false blocks, the
 * share and precision of reproduced findings, cost and time per player, beside the goals.
 * Without ANTHROPIC_API_KEY (or with `--player oracle|null|noisy`) the scripted players run,
 * whose scores are known: the instrument's own check. `--check` verifies the cases (each bug
 * case's reproducer fails on the head and passes on the base). Then the learnings pass
 * (bench/review/learnings-pass.ts): the clean PRs' false positives dismissed, the learnings merged
 * on the default branch, every case reviewed again — false positives and recall before and after.
 */
import path from "node:path";
import { createClient, hasApiKey } from "../src/agent/provider.js";
import { loadDefinitions } from "../src/chain/definitions.js";
import { commandsRefusal, sandboxFor } from "../src/tools/sandbox-policy.js";
import { loadCases } from "./review/case-set.js";
import { MODEL_PLAYERS, SCRIPTED_PLAYERS, type ModelPlayer, type ScriptedPlayer } from "./review/players.js";
import { runReviewSuite } from "./review/run-suite.js";
import { goals, renderScores, score } from "./review/score.js";
import { renderLearningsPass, runLearningsPass } from "./review/learnings-pass.js";
import { positive, runBench, suiteOptions, writeResults } from "./suite-options.js";

const RESULTS_DIR = path.join(import.meta.dirname, "results");
const PLAYERS = [...SCRIPTED_PLAYERS, ...MODEL_PLAYERS] as const;
const USAGE = `npm run bench:review -- [--cases a,b] [--runs N] [--model id] [--concurrency N] [--player ${PLAYERS.join("|")}[,…]]
                         [--max-turns N] [--max-cost USD] [--max-minutes N] [--timeout-minutes N] [--proofs N] [--proof-seconds N]
                         [--out file.json] [--tarballs dir] [--check]`;

function options() {
  const o = suiteOptions({ cases: { type: "string" }, proofs: { type: "string", default: "5" }, "proof-seconds": { type: "string", default: "120" } }, RESULTS_DIR, { maxCostUsd: 1, maxMinutes: 10 });
  const players = o.player?.split(",").map((p) => p.trim()).filter(Boolean);
  const unknown = players?.filter((p) => !(PLAYERS as readonly string[]).includes(p)) ?? [];
  if (unknown.length > 0) throw new Error(`--player takes ${PLAYERS.join(", ")}; got "${unknown.join(", ")}"`);
  const cases = o.values.cases as string | undefined;
  return {
    ...o,
    cases: cases?.split(",").map((t) => t.trim()).filter(Boolean),
    players: players as Array<ScriptedPlayer | ModelPlayer> | undefined,
    proofBudget: { max: Math.floor(positive("proofs", o.values.proofs as string, 5)), seconds: Math.floor(positive("proof-seconds", o.values["proof-seconds"] as string, 120)) },
  };
}

async function main(): Promise<number> {
  const opts = options();
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  const cases = await loadCases(opts.cases);
  const sandbox = await sandboxFor(process.env);
  // Reproducers run in the sandbox only (as in a review): no sandbox, no bench.
  const refusal = commandsRefusal({ ...sandbox, allowUnsandboxed: false }, { network: false });
  if (refusal) throw new Error(`${refusal.reason}. bench:review runs reproducers and needs the OS sandbox.`);
  const suite = { cases, runs: opts.runs, sandbox, from: () => ({ tarballs: opts.tarballs }), proofBudget: opts.proofBudget, concurrency: opts.concurrency, timeoutMs: opts.timeoutMs };
  const onResult = (r: { case: string; player: string; run: number; status: string; findings: unknown[]; wallMs: number }) =>
    console.error(`  ${r.case} ${r.player} run ${r.run}: ${r.status}, ${r.findings.length} finding(s) (${(r.wallMs / 1000).toFixed(1)}s)`);

  if (opts.check) {
    const results = await runReviewSuite({ ...suite, runs: 1, players: ["oracle"], onResult });
    const bad = cases.filter((c) => c.kind === "bug" && !results.find((r) => r.case === c.id)?.findings.every((f) => f.reproduced));
    for (const c of bad) console.log(`✗ ${c.id}: its reproducer does not fail on the head and pass on the base`);
    console.log(bad.length === 0 ? `all ${cases.length} cases check out (${cases.filter((c) => c.kind === "bug").length} bug cases reproduced)` : `${bad.length} case(s) are broken`);
    return bad.length === 0 ? 0 : 1;
  }

  const scripted = opts.players ? opts.players.every((p) => (SCRIPTED_PLAYERS as readonly string[]).includes(p)) : !hasApiKey(process.env);
  if (!scripted && !hasApiKey(process.env)) throw new Error("the model players need ANTHROPIC_API_KEY");
  if (scripted && !opts.players) console.log("ANTHROPIC_API_KEY is not set: running the scripted oracle, null and noisy players.\n");
  const players = opts.players ?? (scripted ? [...SCRIPTED_PLAYERS] : [...MODEL_PLAYERS]);
  const model = opts.model ?? (await loadDefinitions()).agents.get("reviewer")?.model;
  if (!model) throw new Error("no model: pass --model");
  const setup = scripted ? undefined : { client: createClient({ apiKey: process.env.ANTHROPIC_API_KEY!, baseURL: process.env.ANTHROPIC_BASE_URL }), model, budgets: opts.budgets };
  const results = await runReviewSuite({ ...suite, players, ...(setup ? { model: setup } : {}), onResult });

  const scores = players.map((p) => score(p, results, cases));
  const baseline = scores.find((s) => s.player === "one-pass");
  const checks = scores.filter((s) => s.player.startsWith("crewbot") || s.player === "oracle").map((s) => ({ player: s.player, checks: goals(s, baseline) }));
  const title = scripted ? `scripted players, ${cases.length} cases` : `${model}, ${cases.length} cases × ${opts.runs} run(s)`;
  console.log(`\n${renderScores(title, cases, results, scores, checks)}`);
  // The second pass: the clean PRs' false positives dismissed, the learnings merged, every case again.
  const again = (player: string, learningsFile: string) => runReviewSuite({ ...suite, players: [player as ScriptedPlayer | ModelPlayer], ...(setup ? { model: setup } : {}), learningsFile, onResult });
  const learned = await runLearningsPass(players, results, cases, again);
  console.log(`\n${renderLearningsPass(learned.rows)}`);
  await writeResults(opts.out, RESULTS_DIR, "review", { startedAt: new Date().toISOString(), model: scripted ? undefined : model, budgets: opts.budgets, proofBudget: opts.proofBudget, runs: opts.runs, cases: cases.map((c) => ({ id: c.id, kind: c.kind, bugKind: c.bugKind, package: `${c.package}@${c.version}`, licence: c.licence, origin: c.origin, bugLines: c.bugLines })), scores, goals: checks, results, learnings: { figures: learned.rows, results: learned.results } });
  return 0;
}

runBench("bench:review", main);
