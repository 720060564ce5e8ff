/**
 * Who reviews the cases. With a model: crewbot's reviewer (its bundled agent, chain, context and
 * tools, `prove` on or off — the same runChain a review job runs, without GitHub) and a one-pass
 * baseline with the same model (the diff in, findings out, no tools — what most review bots do).
 * Without one: three scripted players that prove the scorer — the oracle (the ground truth, its
 * reproducers run through the real `prove`), null (nothing) and noisy (a critical finding on
 * every changed line).
 */
import { mkdir, realpath, rm } from "node:fs/promises";
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
import { parseDiff } from "../../src/review/diff-lines.js";
import { parseReview } from "../../src/review/parse-findings.js";
import { withProofs } from "../../src/review/proofs.js";
import { reviewContext, renderFileDiff } from "../../src/review/review-context.js";
import { selectFiles } from "../../src/review/select-files.js";
import { proveTool } from "../../src/tools/prove.js";
import type { ProofSession } from "../../src/tools/proof-session.js";
import type { SandboxInfo, ToolContext } from "../../src/tools/types.js";
import type { MaterialisedCase, ReviewCase } from "./case-set.js";
import type { ScoredFinding } from "./score.js";

const run = promisify(execFile);

export type ScriptedPlayer = "oracle" | "null" | "noisy";
export const SCRIPTED_PLAYERS: readonly ScriptedPlayer[] = ["oracle", "null", "noisy"];
export type ModelPlayer = "crewbot+prove" | "crewbot" | "one-pass";
export const MODEL_PLAYERS: readonly ModelPlayer[] = ["crewbot+prove", "crewbot", "one-pass"];

export interface Played {
  status: string;
  findings: ScoredFinding[];
  costUsd: number;
  costEstimate: boolean;
  /** The merged learnings the reviewer said it applied (submit_review's `learnings`). */
  learnings?: AppliedLearning[];
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
    await proveTool.run({ finding, files: g.case.repro, command, behaviourChange: true }, ctx).catch(() => undefined);
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
}

const statusOf = (ok: boolean, stop: string, error?: string, budget?: string) => (ok ? "done" : stop === "budget" && budget ? `stopped: ${budget}` : `crash: ${error ?? stop}`);

/** crewbot's reviewer on the case, as a review job runs it: bundled agent and chain, the diff as context, read-only, `prove` when asked. */
async function crewbot(g: PlayGround, setup: ModelSetup, prove: boolean): Promise<Played> {
  const definitions = await loadDefinitions();
  const dirs = await dirsOf(g);
  const s = prove ? session(g, dirs.proofsDir) : undefined;
  const files = parseDiff(g.m.diff);
  const budget = new BudgetTracker(setup.budgets);
  const pr = { source: "pull request (title and description)", text: `${g.case.title}\n\n${g.case.body}` };
  const result = await runChain({
    chain: definitions.chains.get("review")!,
    agents: definitions.agents,
    task: "(none)",
    context: [pr, ...reviewContext(selectFiles(files), { number: 1, headSha: g.m.head })],
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
    checkOutput: checkStepOutput,
    ...(s ? { proof: s } : {}),
  });
  const reviewer = result.steps.findLast((step) => step.role === "reviewer");
  const review = reviewOf(reviewer ?? { text: result.output });
  // As a review job: proofs count only for findings handed over through submit_review (their index order).
  const viaTool = reviewer?.submission?.tool === "submit_review";
  const findings = withProofs(review.findings, viaTool ? (s?.proofs ?? []) : []).findings.map(scored);
  const learned = review.learnings && review.learnings.length > 0 ? { learnings: review.learnings } : {};
  return { status: statusOf(result.ok, result.stopReason, result.error, result.budget), findings: result.ok ? findings : [], costUsd: budget.costUsd, costEstimate: budget.estimate, ...learned };
}

export const ONE_PASS_SYSTEM = `You review a pull request from its diff alone: you cannot read other files or run anything.
Report only problems that matter — bugs, wrong edge cases, security problems, data loss — each on the line of the NEW version of the file where it is. Leave out style and matters of taste.
Answer with exactly these sections. Each finding is one bullet \`- path/to/file.js:42 - text\` (or \`:40-45\` for several lines); under a section with nothing, write "None."

## Critical
## Warnings
## Suggestions
## Summary`;

/** The one-pass baseline: one call, the diff in, findings out, no tools. */
async function onePass(g: PlayGround, setup: ModelSetup): Promise<Played> {
  const budget = new BudgetTracker(setup.budgets);
  const diff = parseDiff(g.m.diff).map(renderFileDiff).join("\n");
  const text = `<pull_request>\n${g.case.title}\n\n${g.case.body}\n</pull_request>\n<diff>\n${diff}\n</diff>`;
  try {
    const call = callModel({ client: setup.client, signal: g.signal, params: { model: setup.model, max_tokens: 8192, system: ONE_PASS_SYSTEM, messages: [{ role: "user", content: text }] } });
    const { message, usage } = await call.done;
    budget.addUsage(setup.model, usage);
    const answer = message.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    return { status: "done", findings: parseReview(answer).findings.map(scored), costUsd: budget.costUsd, costEstimate: budget.estimate };
  } catch (error) {
    return { status: `crash: ${(error as Error).message.split("\n")[0]}`, findings: [], costUsd: budget.costUsd, costEstimate: budget.estimate };
  }
}

export async function playModel(player: ModelPlayer, g: PlayGround, setup: ModelSetup): Promise<Played> {
  if (player === "one-pass") return onePass(g, setup);
  return crewbot(g, setup, player === "crewbot+prove");
}

/** Removes a play's folders. */
export const cleanPlay = (g: PlayGround) => rm(g.work, { recursive: true, force: true });
