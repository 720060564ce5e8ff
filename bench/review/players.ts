/**
 * Who reviews the cases. With a model: crewbot's reviewer at each `review.effort` level (its
 * bundled agent, chain, context and tools, the first look when a first-look model is given, `prove`
 * as the level allows — the same runChain a review job runs, without GitHub), the standard level
 * without `prove`, and two one-pass baselines with the same model: the diff in, findings out, no
 * tools (what most review bots do), and the same given the changed files whole.
 * Without one: three scripted players that prove the scorer — the oracle (the ground truth, its
 * reproducers run through the real `prove`), null (nothing) and noisy (a critical finding on
 * every changed line).
 */
import { mkdir, readFile, realpath, rm } from "node:fs/promises";
import path from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type Anthropic from "@anthropic-ai/sdk";
import { BudgetTracker, type Budgets } from "../../src/agent/budget.js";
import { callModel } from "../../src/agent/model-call.js";
import { loadDefinitions } from "../../src/chain/definitions.js";
import { runChain } from "../../src/chain/run-chain.js";
import { buildStepPrompt } from "../../src/text/prompt.js";
import { checkStepOutput } from "../../src/jobs/step-results.js";
import { reviewOf } from "../../src/review/review-result.js";
import type { AppliedLearning } from "../../src/learnings/types.js";
import { LEARNINGS_SOURCE, learningsFor, learningsInSection, type RepoLearnings } from "../../src/context/learnings-context.js";
import { parseDiff, type DiffFile } from "../../src/review/diff-lines.js";
import { repoOverview } from "../../src/context/repo-overview.js";
import { EFFORT, firstLookRuns, reviewerShape, type ReviewEffort } from "../../src/review/effort.js";
import { afterFirstLook, firstLook } from "../../src/review/first-look.js";
import { parseReview } from "../../src/review/parse-findings.js";
import { withProofs } from "../../src/review/proofs.js";
import { MAX_DIFF_CONTEXT_CHARS, reviewContext, renderFileDiff } from "../../src/review/review-context.js";
import { selectFiles } from "../../src/review/select-files.js";
import { proveTool } from "../../src/tools/prove.js";
import type { ProofSession } from "../../src/tools/proof-session.js";
import type { SandboxInfo, ToolContext } from "../../src/tools/types.js";
import type { MaterialisedCase, ReviewCase } from "./case-set.js";
import type { ScoredFinding } from "./score.js";

const run = promisify(execFile);

export type ScriptedPlayer = "oracle" | "null" | "noisy";
export const SCRIPTED_PLAYERS: readonly ScriptedPlayer[] = ["oracle", "null", "noisy"];
/** crewbot at each effort level, as a review job runs it (proofs as the level allows). */
const CREWBOT_AT: Readonly<Record<string, { effort: ReviewEffort; prove: boolean }>> = {
  "crewbot:quick": { effort: "quick", prove: false },
  "crewbot:standard": { effort: "standard", prove: true },
  "crewbot:deep": { effort: "deep", prove: true },
  "crewbot:no-prove": { effort: "standard", prove: false },
};
export type ModelPlayer = "crewbot:quick" | "crewbot:standard" | "crewbot:deep" | "crewbot:no-prove" | "one-pass" | "one-pass+files";
export const MODEL_PLAYERS: readonly ModelPlayer[] = ["crewbot:quick", "crewbot:standard", "crewbot:deep", "crewbot:no-prove", "one-pass", "one-pass+files"];

export interface Played {
  status: string;
  findings: ScoredFinding[];
  costUsd: number;
  costEstimate: boolean;
  /** The merged learnings the reviewer said it applied (submit_review's `learnings`). */
  learnings?: AppliedLearning[];
  /** Input tokens read from the prompt cache, over all input tokens (crewbot's players). */
  cache?: number;
}

/** The folders one play gets: the case's repository at its head, the base as a tree, and room for the job's files. */
export interface PlayGround {
  case: ReviewCase;
  m: MaterialisedCase;
  /** A tree of the base commit (no .git), for `prove`'s base runs. */
  baseTree: string;
  /** Artifacts, scratch HOME, proof copies. */
  work: string;
  sandbox: SandboxInfo;
  proofBudget: { max: number; seconds: number };
  signal: AbortSignal;
  /** The learnings merged on the case's default branch (the learnings pass), read as a review job reads them. */
  learnings?: RepoLearnings;
}

/** The base commit as a plain tree beside the repository (what a review job exports from its mirror). */
export async function exportBaseTree(m: MaterialisedCase, into: string): Promise<string> {
  await mkdir(into, { recursive: true });
  await run("sh", ["-c", 'git -C "$1" -c core.hooksPath=/dev/null archive --format=tar "$2" | tar -x -C "$3"', "sh", m.repo, m.base, into]);
  return realpath(into);
}

async function dirsOf(g: PlayGround) {
  const make = async (name: string) => {
    const dir = path.join(g.work, name);
    await mkdir(dir, { recursive: true });
    return realpath(dir);
  };
  return { artifactsDir: await make("artifacts"), scratchDir: await make("home"), proofsDir: await make("proofs") };
}

function session(g: PlayGround, proofsDir: string): ProofSession {
  return { budget: g.proofBudget, base: { sha: g.m.base, tree: g.baseTree }, workDir: proofsDir, proofs: [] };
}

const scored = (f: { path: string; line: number; endLine?: number; severity: ScoredFinding["severity"]; proof?: { outcome: string }; kind?: string }): ScoredFinding => ({
  path: f.path,
  line: f.line,
  ...(f.endLine !== undefined ? { endLine: f.endLine } : {}),
  severity: f.severity,
  ...(f.proof?.outcome === "reproduced" ? { reproduced: true } : {}),
  ...(f.kind ? { kind: f.kind } : {}),
});

/** The oracle: a critical finding on each of the bug's line ranges, proved with the case's reproducer through the real tool. */
async function oracle(g: PlayGround): Promise<Played> {
  if (g.case.kind === "clean") return { status: "done", findings: [], costUsd: 0, costEstimate: false };
  const dirs = await dirsOf(g);
  const s = session(g, dirs.proofsDir);
  const ctx: ToolContext = { root: g.m.repo, mode: "read-only", readRoots: [dirs.artifactsDir], ...dirs, signal: g.signal, sandbox: g.sandbox, network: false, envAllowlist: {}, proof: s };
  const command = `node --test ${g.case.repro.map((f) => f.path).join(" ")}`;
  const findings = g.case.bugLines.map((b) => ({ path: b.path, line: b.from, ...(b.to > b.from ? { endLine: b.to } : {}), severity: "critical" as const, text: g.case.bugKind }));
  // Each finding backed by the case's reproducer, within the budget. behaviourChange: it must also
  // pass on the base, which checks the case itself (`--check`).
  for (let finding = 0; finding < Math.min(findings.length, g.proofBudget.max); finding++) {
    await proveTool.run({ finding, severity: "critical", files: g.case.repro, command, behaviourChange: true }, ctx).catch(() => undefined);
  }
  return { status: "done", findings: withProofs(findings, s.proofs).findings.map(scored), costUsd: 0, costEstimate: false };
}

/** What noisy calls a finding on an added line: by the file and the line alone. */
export function noisyKind(file: string, text: string): string {
  if (!/\.(?:[cm]?js|ts)$/.test(file)) return "documentation wording";
  if (/(^|\/)(test|tests|__tests__)\/|\.(test|spec)\.[cm]?[jt]s$/.test(file)) return "test code";
  if (/^\s*(\/\/|\/\*|\*)/.test(text)) return "comment wording";
  return "code change";
}

/**
 * noisy: a critical finding on every line the pull request adds, in every file — but for the
 * kinds a learning in its request says not to flag. It reads the learnings from the prompt a
 * review step would send (the same context section), and names each one it applied.
 */
function noisy(g: PlayGround): Played {
  const prompt = buildStepPrompt(learningsFor("reviewer", g.learnings), "(none)");
  const rules = learningsInPrompt(prompt).filter((l) => /don't flag|do not flag/i.test(l.text));
  const suppressed = new Map<string, number>();
  const findings: ScoredFinding[] = [];
  for (const file of parseDiff(g.m.diff)) {
    for (const l of file.hunks.flatMap((h) => h.lines.filter((x) => x.kind === "add"))) {
      const kind = noisyKind(file.path, l.text);
      const rule = rules.find((r) => r.text.includes(`"${kind}"`));
      if (rule) suppressed.set(rule.id, (suppressed.get(rule.id) ?? 0) + 1);
      else findings.push({ path: file.path, line: l.newLine!, severity: "critical", kind });
    }
  }
  const learnings = [...suppressed].map(([id, n]) => ({ id, suppressed: n }));
  return { status: "done", findings, costUsd: 0, costEstimate: false, ...(learnings.length > 0 ? { learnings } : {}) };
}

/** The learnings of the repository's learnings document in a step's prompt. */
function learningsInPrompt(prompt: string): { id: string; text: string }[] {
  const doc = prompt.split(`<document source="${LEARNINGS_SOURCE.replace(/"/g, "'")}">\n`)[1]?.split("\n</document>")[0];
  return doc ? learningsInSection(doc) : [];
}

export async function playScripted(player: ScriptedPlayer, g: PlayGround): Promise<Played> {
  if (player === "oracle") return oracle(g);
  if (player === "noisy") return noisy(g);
  return { status: "done", findings: [], costUsd: 0, costEstimate: false };
}

export interface ModelSetup {
  client: Anthropic;
  model: string;
  budgets: Budgets;
  /** The first look's model (`CREWBOT_FIRST_LOOK_MODEL`); none: no first look, as in a job. */
  firstLookModel?: string;
}

const statusOf = (ok: boolean, stop: string, error?: string, budget?: string) => (ok ? "done" : stop === "budget" && budget ? `stopped: ${budget}` : `crash: ${error ?? stop}`);

/** crewbot's reviewer on the case, as a review job runs it at `effort`: bundled agent and chain, the overview and the diff as context, the first look, read-only, `prove` as the level allows. */
async function crewbot(g: PlayGround, setup: ModelSetup, effort: ReviewEffort, prove: boolean): Promise<Played> {
  const definitions = await loadDefinitions();
  const dirs = await dirsOf(g);
  const proofs = prove ? EFFORT[effort].proofs(g.proofBudget.max) : 0;
  const s = proofs > 0 ? { ...session(g, dirs.proofsDir), budget: { ...g.proofBudget, max: proofs } } : undefined;
  const budget = new BudgetTracker(setup.budgets);
  const pr = { source: "pull request (title and description)", text: `${g.case.title}\n\n${g.case.body}` };
  const overview = await repoOverview(g.m.repo, { learnings: g.learnings?.learnings.length ?? 0 });
  const selected = selectFiles(parseDiff(g.m.diff));
  const look = firstLookRuns(effort, setup.firstLookModel)
    ? await firstLook({ client: setup.client, model: setup.firstLookModel, files: selected.reviewed, context: [pr, overview], budget, signal: g.signal })
    : undefined;
  const { selection, context, triage } = afterFirstLook(effort, selected, look);
  const result = await runChain({
    chain: definitions.chains.get("review")!,
    agents: definitions.agents,
    task: "(none)",
    context: [pr, overview, ...reviewContext(selection, { number: 1, headSha: g.m.head }), ...context],
    mode: "read-only",
    trust: "trusted",
    workspace: { root: g.m.repo, artifactsDir: dirs.artifactsDir, scratchDir: dirs.scratchDir },
    sandbox: g.sandbox,
    budget,
    models: { reviewer: setup.model },
    client: setup.client,
    signal: g.signal,
    // As a review job: the merged learnings for the reviewer (the learnings pass).
    stepContext: async (step) => learningsFor(step.role, g.learnings),
    stepShape: (step) => (step.role === "reviewer" ? reviewerShape(effort, definitions.agents.get(step.agent)?.maxTurns, triage, setup.firstLookModel) : undefined),
    checkOutput: checkStepOutput,
    ...(s ? { proof: s } : {}),
  });
  const reviewer = result.steps.findLast((step) => step.role === "reviewer");
  const review = reviewOf(reviewer ?? { text: result.output });
  // As a review job: proofs count only for findings handed over through submit_review (their index order).
  const viaTool = reviewer?.submission?.tool === "submit_review";
  const findings = withProofs(review.findings, viaTool ? (s?.proofs ?? []) : []).findings.map(scored);
  const learned = review.learnings && review.learnings.length > 0 ? { learnings: review.learnings } : {};
  return { status: statusOf(result.ok, result.stopReason, result.error, result.budget), findings: result.ok ? findings : [], costUsd: budget.costUsd, costEstimate: budget.estimate, cache: cacheShare(budget), ...learned };
}

/** The share of input tokens read from the prompt cache (what keeping it warm across turns buys). */
function cacheShare(budget: BudgetTracker): number | undefined {
  const { input, cacheRead, cacheWrite } = budget.usage;
  const all = input + cacheRead + cacheWrite;
  return all === 0 ? undefined : cacheRead / all;
}

export const ONE_PASS_SYSTEM = `You review a pull request from its diff alone: you cannot read other files or run anything.
Report only problems that matter — bugs, wrong edge cases, security problems, data loss — each on the line of the NEW version of the file where it is. Leave out style and matters of taste.
Answer with exactly these sections. Each finding is one bullet \`- path/to/file.js:42 - text\` (or \`:40-45\` for several lines); under a section with nothing, write "None."

## Critical
## Warnings
## Suggestions
## Summary`;

export const ONE_PASS_FILES_SYSTEM = ONE_PASS_SYSTEM.replace(
  "from its diff alone: you cannot read other files or run anything.",
  "from its diff and the whole new version of each changed file: you cannot read other files or run anything.",
);

/** The changed files whole, as the head has them, up to the reviewer's diff cap (the rest named). */
async function changedFiles(g: PlayGround, files: readonly DiffFile[]): Promise<string> {
  let out = "";
  for (const f of files.filter((x) => x.status !== "deleted" && !x.binary)) {
    const text = await readFile(path.join(g.m.repo, f.path), "utf8").catch(() => undefined);
    if (text === undefined) continue;
    const block = `<file path="${f.path}">\n${text}</file>\n`;
    out += out.length + block.length > MAX_DIFF_CONTEXT_CHARS ? `<file path="${f.path}">(too long to show)</file>\n` : block;
  }
  return out;
}

/** The one-pass baselines: one call, the diff (and with `files`, the changed files whole) in, findings out, no tools. */
async function onePass(g: PlayGround, setup: ModelSetup, files: boolean): Promise<Played> {
  const budget = new BudgetTracker(setup.budgets);
  const parsed = parseDiff(g.m.diff);
  const diff = parsed.map(renderFileDiff).join("\n");
  const whole = files ? `<changed_files>\n${await changedFiles(g, parsed)}</changed_files>\n` : "";
  const text = `<pull_request>\n${g.case.title}\n\n${g.case.body}\n</pull_request>\n${whole}<diff>\n${diff}\n</diff>`;
  try {
    const system = files ? ONE_PASS_FILES_SYSTEM : ONE_PASS_SYSTEM;
    const call = callModel({ client: setup.client, signal: g.signal, params: { model: setup.model, max_tokens: 8192, system, messages: [{ role: "user", content: text }] } });
    const { message, usage } = await call.done;
    budget.addUsage(setup.model, usage);
    const answer = message.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    return { status: "done", findings: parseReview(answer).findings.map(scored), costUsd: budget.costUsd, costEstimate: budget.estimate };
  } catch (error) {
    return { status: `crash: ${(error as Error).message.split("\n")[0]}`, findings: [], costUsd: budget.costUsd, costEstimate: budget.estimate };
  }
}

export async function playModel(player: ModelPlayer, g: PlayGround, setup: ModelSetup): Promise<Played> {
  if (player === "one-pass" || player === "one-pass+files") return onePass(g, setup, player === "one-pass+files");
  const at = CREWBOT_AT[player]!;
  return crewbot(g, setup, at.effort, at.prove);
}

/** Removes a play's folders. */
export const cleanPlay = (g: PlayGround) => rm(g.work, { recursive: true, force: true });
