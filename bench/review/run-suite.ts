/**
 * One bench:review suite: each case materialised once (base commit, head commit, the base as a
 * tree), then every player × run reviews it in folders of its own. A timeout or a crash is
 * recorded as such and scores with no findings.
 */
import { mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { SandboxInfo } from "../../src/tools/types.js";
import { materialiseCase, type ReviewCase } from "./case-set.js";
import { mergeLearnings } from "./learnings-pass.js";
import { cleanPlay, exportBaseTree, playModel, playScripted, type ModelPlayer, type ModelSetup, type PlayGround, type ScriptedPlayer } from "./players.js";
import type { CaseResult } from "./score.js";
import { pool } from "../pool.js";

export interface ReviewSuiteOptions {
  cases: ReviewCase[];
  runs: number;
  players: ReadonlyArray<ScriptedPlayer | ModelPlayer>;
  sandbox: SandboxInfo;
  /** Where a case's package comes from: the tarball cache (npm pack), or a local directory (tests). */
  from: (c: ReviewCase) => { tarballs: string } | { source: string };
  /** The model players' client and model; scripted players need none. */
  model?: ModelSetup;
  proofBudget: { max: number; seconds: number };
  concurrency: number;
  /** Per play, wall clock; past it the play is cancelled and counts as a timeout. */
  timeoutMs: number;
  onResult?: (r: CaseResult) => void;
  /** `.github/crewbot/learnings.md` merged on every case's default branch before it is played (the learnings pass). */
  learningsFile?: string;
}

const SCRIPTED: readonly string[] = ["oracle", "null", "noisy"];

export async function runReviewSuite(opts: ReviewSuiteOptions): Promise<CaseResult[]> {
  const work = await realpath(await mkdtemp(path.join(os.tmpdir(), "crewbot-bench-review-")));
  try {
    const ready = new Map<string, Ready>();
    for (const c of opts.cases) {
      const made = await materialiseCase(c, path.join(work, c.id, "repo"), opts.from(c));
      const m = { ...made, repo: await realpath(made.repo) };
      const learnings = opts.learningsFile !== undefined ? await mergeLearnings(m, opts.learningsFile) : undefined;
      ready.set(c.id, { m, baseTree: await exportBaseTree(m, path.join(work, c.id, "base")), ...(learnings ? { learnings } : {}) });
    }
    const jobs: Array<() => Promise<CaseResult>> = [];
    for (let run = 1; run <= opts.runs; run++) {
      for (const c of opts.cases) for (const player of opts.players) jobs.push(() => play(opts, c, ready.get(c.id)!, player, run, work));
    }
    return await pool(jobs, Math.max(1, opts.concurrency), (r) => opts.onResult?.(r));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

type Ready = Pick<PlayGround, "m" | "baseTree" | "learnings">;

async function play(opts: ReviewSuiteOptions, c: ReviewCase, ready: Ready, player: ScriptedPlayer | ModelPlayer, run: number, work: string): Promise<CaseResult> {
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), opts.timeoutMs);
  const g: PlayGround = { case: c, ...ready, work: path.join(work, c.id, `${player}-${run}`), sandbox: opts.sandbox, proofBudget: opts.proofBudget, signal: timer.signal };
  const started = Date.now();
  try {
    let played;
    if (SCRIPTED.includes(player)) played = await playScripted(player as ScriptedPlayer, g);
    else if (opts.model) played = await playModel(player as ModelPlayer, g, opts.model);
    else throw new Error(`player ${player} needs a model`);
    const status = timer.signal.aborted ? "timeout" : played.status;
    const learned = status === "done" && played.learnings ? { learnings: played.learnings } : {};
    const cache = played.cache !== undefined ? { cache: played.cache } : {};
    return { case: c.id, player, run, status, findings: status === "done" ? played.findings : [], costUsd: played.costUsd, costEstimate: played.costEstimate, wallMs: Date.now() - started, ...learned, ...cache };
  } catch (error) {
    return { case: c.id, player, run, status: `crash: ${(error as Error).message.split("\n")[0]}`, findings: [], costUsd: 0, costEstimate: false, wallMs: Date.now() - started };
  } finally {
    clearTimeout(timeout);
    await cleanPlay(g);
  }
}
