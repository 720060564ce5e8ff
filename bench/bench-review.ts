/**
 * `npm run bench:review`: how often review findings are right. crewbot's reviewer at each effort
 * level (and standard without `prove`) and two one-pass baselines (the diff in, findings out, no
 * tools; and the same with the changed files whole) with the same model review the same pull
 * requests (bench/review/: buggy ones with the bug's lines as ground truth, clean ones that
 * deserve no critical or warning finding), in two sets reported apart — easy (popular packages, the
 * bug in the diff) and hard (an application no model has seen, the bug outside the diff); recall,
 * precision, F1, false blocks, the share and precision of reproduced findings, cost, time and cache
 * reads per player, beside the goals.
 * Without ANTHROPIC_API_KEY (or with `--player oracle|null|noisy`) the scripted players run,
 * whose scores are known: the instrument's own check. `--check` verifies the cases (each bug
 * case's reproducer fails on the head and passes on the base). Then the learnings pass
 * (bench/review/learnings-pass.ts): the clean PRs' false positives dismissed, the learnings merged
 * on the default branch, every case reviewed again — false positives and recall before and after.
 */
import path from "node:path";
import { createClient, hasModelAccess } from "../src/agent/provider.js";
import { loadDefinitions } from "../src/chain/definitions.js";
import { commandsRefusal, sandboxFor } from "../src/tools/sandbox-policy.js";
import { CASE_SETS, caseSource, loadCases, type CaseSet, type ReviewCase } from "./review/case-set.js";
import { MODEL_PLAYERS, SCRIPTED_PLAYERS, type ModelPlayer, type ScriptedPlayer } from "./review/players.js";
import { runReviewSuite } from "./review/run-suite.js";
import { goals, renderScores, score, setGoals, type CaseResult } from "./review/score.js";
import { renderLearningsPass, runLearningsPass } from "./review/learnings-pass.js";
import { positive, runBench, suiteOptions, writeResults } from "./suite-options.js";

const RESULTS_DIR = path.join(import.meta.dirname, "results");
const PLAYERS = [...SCRIPTED_PLAYERS, ...MODEL_PLAYERS] as const;
const USAGE = `npm run bench:review -- [--set easy|hard|all] [--cases a,b] [--runs N] [--first-look-model id] [--model id] [--concurrency N] [--player ${PLAYERS.join("|")}[,…]]
                         [--max-turns N] [--max-cost USD] [--max-minutes N] [--timeout-minutes N] [--proofs N] [--proof-seconds N]
                         [--out file.json] [--tarballs dir] [--check]`;

function options() {
  const o = suiteOptions(
    { cases: { type: "string" }, set: { type: "string", default: "all" }, "first-look-model": { type: "string" }, proofs: { type: "string", default: "5" }, "proof-seconds": { type: "string", default: "120" } },
    RESULTS_DIR,
    { maxCostUsd: 1, maxMinutes: 10 },
  );
  const set = o.values.set as string;
  if (set !== "all" && !(CASE_SETS as readonly string[]).includes(set)) throw new Error(`--set takes ${CASE_SETS.join(", ")} or all; got "${set}"`);
  const players = o.player?.split(",").map((p) => p.trim()).filter(Boolean);
  const unknown = players?.filter((p) => !(PLAYERS as readonly string[]).includes(p)) ?? [];
  if (unknown.length > 0) throw new Error(`--player takes ${PLAYERS.join(", ")}; got "${unknown.join(", ")}"`);
  const cases = o.values.cases as string | undefined;
  return {
    ...o,
    cases: cases?.split(",").map((t) => t.trim()).filter(Boolean),
    set: set === "all" ? undefined : (set as CaseSet),
    // As in a job: the operator's first-look model, else none.
    firstLookModel: (o.values["first-look-model"] as string | undefined) ?? (process.env.CREWBOT_FIRST_LOOK_MODEL?.trim() || undefined),
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
  const cases = await loadCases(opts.cases, opts.set);
  const sandbox = await sandboxFor(process.env);
  // Reproducers run in the sandbox only (as in a review): no sandbox, no bench.
  const refusal = commandsRefusal({ ...sandbox, allowUnsandboxed: false }, { network: false });
  if (refusal) throw new Error(`${refusal.reason}. bench:review runs reproducers and needs the OS sandbox.`);
  const suite = { cases, runs: opts.runs, sandbox, from: (c: ReviewCase) => caseSource(c, opts.tarballs), proofBudget: opts.proofBudget, concurrency: opts.concurrency, timeoutMs: opts.timeoutMs };
  const onResult = (r: { case: string; player: string; run: number; status: string; findings: unknown[]; wallMs: number }) =>
    console.error(`  ${r.case} ${r.player} run ${r.run}: ${r.status}, ${r.findings.length} finding(s) (${(r.wallMs / 1000).toFixed(1)}s)`);

  if (opts.check) {
    const results = await runReviewSuite({ ...suite, runs: 1, players: ["oracle"], onResult });
    const bad = cases.filter((c) => c.kind === "bug" && !results.find((r) => r.case === c.id)?.findings.every((f) => f.reproduced));
    for (const c of bad) console.log(`✗ ${c.id}: its reproducer does not fail on the head and pass on the base`);
    console.log(bad.length === 0 ? `all ${cases.length} cases check out (${cases.filter((c) => c.kind === "bug").length} bug cases reproduced)` : `${bad.length} case(s) are broken`);
    return bad.length === 0 ? 0 : 1;
  }

  const scripted = opts.players ? opts.players.every((p) => (SCRIPTED_PLAYERS as readonly string[]).includes(p)) : !hasModelAccess(process.env);
  if (!scripted && !hasModelAccess(process.env)) throw new Error("the model players need ANTHROPIC_API_KEY");
  if (scripted && !opts.players) console.log("ANTHROPIC_API_KEY is not set: running the scripted oracle, null and noisy players.\n");
  const players = opts.players ?? (scripted ? [...SCRIPTED_PLAYERS] : [...MODEL_PLAYERS]);
  const model = opts.model ?? (await loadDefinitions()).agents.get("reviewer")?.model;
  if (!model) throw new Error("no model: pass --model");
  const client = scripted ? undefined : createClient({ apiKey: process.env.ANTHROPIC_API_KEY!, baseURL: process.env.ANTHROPIC_BASE_URL });
  const setup = client && { client, model, budgets: opts.budgets, ...(opts.firstLookModel ? { firstLookModel: opts.firstLookModel } : {}) };
  const results = await runReviewSuite({ ...suite, players, ...(setup ? { model: setup } : {}), onResult });

  const title = scripted ? "scripted players" : `${model}${opts.firstLookModel ? ` (first look: ${opts.firstLookModel})` : ""}, ${opts.runs} run(s)`;
  const bySet = CASE_SETS.filter((set) => cases.some((c) => c.set === set)).map((set) => scoreSet(set, cases, results, players, title));
  for (const s of bySet) console.log(`\n${s.text}`);
  // The second pass: the clean PRs' false positives dismissed, the learnings merged, every case again.
  const again = (player: string, learningsFile: string) => runReviewSuite({ ...suite, players: [player as ScriptedPlayer | ModelPlayer], ...(setup ? { model: setup } : {}), learningsFile, onResult });
  const learned = await runLearningsPass(players, results, cases, again);
  console.log(`\n${renderLearningsPass(learned.rows)}`);
  const sets = Object.fromEntries(bySet.map(({ set, scores, checks }) => [set, { scores, goals: checks }]));
  const caseRows = cases.map((c) => ({ id: c.id, set: c.set, kind: c.kind, bugKind: c.bugKind, package: `${c.package}@${c.version}`, licence: c.licence, origin: c.origin, bugLines: c.bugLines }));
  await writeResults(opts.out, RESULTS_DIR, "review", { startedAt: new Date().toISOString(), model: scripted ? undefined : model, firstLookModel: opts.firstLookModel, budgets: opts.budgets, proofBudget: opts.proofBudget, runs: opts.runs, cases: caseRows, sets, results, learnings: { figures: learned.rows, results: learned.results } });
  return 0;
}

/** One set's table and goals: the absolute goals for crewbot's levels (and the oracle), then the set's own against one-pass. */
function scoreSet(set: CaseSet, all: readonly ReviewCase[], results: readonly CaseResult[], players: readonly string[], title: string) {
  const cases = all.filter((c) => c.set === set);
  const mine = results.filter((r) => cases.some((c) => c.id === r.case));
  const scores = players.map((p) => score(p, mine, cases));
  const baseline = scores.find((s) => s.player === "one-pass");
  const checks = [
    ...scores.filter((s) => s.player.startsWith("crewbot:") || s.player === "oracle").map((s) => ({ player: s.player, checks: goals(s, baseline) })),
    ...setGoals(set, scores),
  ];
  const kinds = `${cases.filter((c) => c.kind === "bug").length} bug, ${cases.filter((c) => c.kind === "clean").length} clean`;
  return { set, scores, checks, text: renderScores(`${set} set (${kinds}): ${title}`, cases, mine, scores, checks) };
}

runBench("bench:review", main);
