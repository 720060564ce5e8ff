/**
 * `prove`: the reviewer backs one finding with a reproducer — files it adds (a test, a script) and a
 * command. The command runs in the sandbox, network off, in a throwaway copy of the PR head with
 * those files added, then in a copy of the merge base; the checkout itself is never written. A
 * finding is reproduced when the command fails on the head (and, for a change of behaviour, passes
 * on the base). The job hands the session in (the base's tree, the budget) and reads the proofs
 * back once the reviewer has submitted its review.
 */
import { constants } from "node:fs";
import { lstat, mkdir, open, realpath, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { copyTree, CopyStopped, type CopyBounds } from "./copy-tree.js";
import { withToolErrors } from "./errors.js";
import { OutputCollector } from "./output.js";
import { hasGitSegment, isInside } from "./paths.js";
import { runForModel } from "./proof-output.js";
import { runCommand, type CommandRun } from "./run-command.js";
import { ToolError, type Tool, type ToolContext } from "./types.js";
import type { CopyLimits, Proof, ProofOutcome, ProofRun, ReproducerFile } from "./proof-session.js";

/** One copy of the head or the base: 1 GiB of file data (sparse files at their full size), 200,000 entries. */
export const COPY_LIMITS: CopyLimits = { maxBytes: 1024 * 1024 * 1024, maxEntries: 200_000 };

export const PROOF_TAIL_BYTES = 4000;
const MAX_FILES = 20;
const MAX_FILE_CHARS = 256 * 1024;

const schema = z
  .object({
    finding: z.number().int().min(0).describe("0-based index of the finding this proves, in the submit_review call you make afterwards."),
    severity: z
      .enum(["critical", "warning"])
      .describe("The finding's severity, as it will be in submit_review. Only critical and warning findings are proved: a suggestion goes without a reproducer."),
    files: z
      .array(z.object({ path: z.string().min(1), content: z.string().max(MAX_FILE_CHARS) }).strict())
      .max(MAX_FILES)
      .optional()
      .describe("Files to add to the copy before the command runs (a test, a script), paths relative to the repository root."),
    command: z.string().min(1).describe("The command that fails while the problem is there (e.g. `node --test test/repro.test.mjs`)."),
    behaviourChange: z
      .boolean()
      .optional()
      .describe(
        "A flag on the finding: true marks it a regression, behaviour that worked before this pull request. crewbot then also runs the command on the merge base " +
          "and counts the finding reproduced only when it passes there. Leave it out for a problem of the new code itself.",
      ),
  })
  .strict();

type ProveInput = z.infer<typeof schema>;

const DESCRIPTION =
  "Back one critical or warning finding with a reproducer (never a suggestion: it goes without one): files to add (a test, a script) and a command that FAILS while the problem is there. " +
  "crewbot runs it in the sandbox with no network, in a throwaway copy of the pull request's head with your files added, and again on the merge base; " +
  "the checkout is not changed. The finding is reproduced when the command fails on the head (and, for a finding flagged behaviourChange, passes on the base). " +
  "`finding` is the finding's 0-based index in the submit_review call you make afterwards. A reproducer that does not reproduce downgrades its finding to a suggestion. " +
  "Where the repository has no test runner, a plain `node` script is fine: `node repro.mjs`, failing through node:assert or a non-zero exit.";

function refuse(p: string, why: string): never {
  throw new ToolError(`Refused reproducer file ${JSON.stringify(p)}: ${why}.`);
}

/** Lexical checks first, so nothing outside the copy is even looked at. */
function checkedRelative(p: string): string[] {
  if (p.includes("\0")) refuse(p, "it contains a NUL byte");
  if (path.isAbsolute(p) || p.startsWith("~")) refuse(p, "it must be relative to the repository root");
  const segments = p.split(/[\\/]+/).filter((s) => s !== "" && s !== ".");
  if (segments.length === 0) refuse(p, "it names no file");
  if (segments.includes("..")) refuse(p, "\"..\" is not allowed");
  if (hasGitSegment(segments.join("/"))) refuse(p, ".git is off limits");
  return segments;
}

/**
 * Writes one file inside `copy`: every parent is made or must be a real directory (a symlink from
 * the pull request is never followed), the file itself is opened with O_NOFOLLOW, and the parent's
 * realpath must still lie inside the copy.
 */
async function addFile(copy: string, file: ReproducerFile): Promise<void> {
  const segments = checkedRelative(file.path);
  let dir = copy;
  for (const segment of segments.slice(0, -1)) {
    dir = path.join(dir, segment);
    const st = await lstat(dir).catch(() => undefined);
    if (st === undefined) await mkdir(dir);
    else if (st.isSymbolicLink()) refuse(file.path, `${path.relative(copy, dir)} is a symlink`);
    else if (!st.isDirectory()) refuse(file.path, `${path.relative(copy, dir)} is not a directory`);
  }
  if (!isInside(copy, await realpath(dir))) refuse(file.path, "it resolves outside the repository");
  const target = path.join(dir, segments.at(-1)!);
  const st = await lstat(target).catch(() => undefined);
  if (st?.isSymbolicLink()) refuse(file.path, "it is a symlink");
  if (st !== undefined && !st.isFile()) refuse(file.path, "it is not a regular file");
  const handle = await open(target, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
  try {
    await handle.writeFile(file.content);
  } finally {
    await handle.close();
  }
}

/** A copy of `tree` for a run, or why there is none: over a limit, cancelled, or out of the proof's time. */
async function copyFor(tree: string, to: string, what: string, bounds: CopyBounds, seconds: number): Promise<{ copy: string } | { problem: string }> {
  try {
    return { copy: await copyTree(tree, to, bounds) };
  } catch (error) {
    if (!(error instanceof CopyStopped)) throw error;
    if (error.why === "limit") return { problem: `${what} is ${error.message}` };
    if (error.why === "cancelled") return { problem: `cancelled while ${what} was copied` };
    return { problem: `timed out after ${seconds} s (review.proofBudget.seconds) while ${what} was copied` };
  }
}

function problemOf(res: CommandRun, timeoutS: number): string | undefined {
  if (res.spawnError !== undefined) return `could not start: ${res.spawnError}`;
  if (res.limit !== undefined) return res.limit;
  if (res.timedOut) return `timed out after ${timeoutS} s (review.proofBudget.seconds)`;
  if (res.aborted) return "cancelled";
  if (res.signal !== null) return `killed by signal ${res.signal}`;
  if (res.exitCode === null) return "exit code unknown";
  // The shell's own codes: the command (or a program it names) could not be run at all.
  if (res.exitCode === 127) return "command not found (exit code 127)";
  if (res.exitCode === 126) return "command not executable (exit code 126)";
  return undefined;
}

async function runIn(tree: string, home: string, input: ProveInput, ctx: ToolContext, label: string, timeoutMs: number): Promise<ProofRun> {
  const collector = new OutputCollector(ctx.artifactsDir, label, PROOF_TAIL_BYTES);
  const res = await runCommand(
    // Network off whatever the repository's sandbox.network says: a proof needs nothing from outside.
    { root: tree, mode: "write", network: false, scratchDir: home, artifactsDir: ctx.artifactsDir, sandbox: ctx.sandbox, envAllowlist: ctx.envAllowlist },
    input.command,
    { timeoutMs, signal: ctx.signal, onData: (chunk) => collector.push(chunk) },
  );
  const out = await collector.finish();
  const problem = problemOf(res, Math.round(timeoutMs / 1000));
  return { exitCode: res.exitCode, tail: out.tail, ...(problem !== undefined ? { problem } : {}), ...(out.artifact !== undefined ? { artifact: out.artifact } : {}) };
}

/** The outcome from the two runs (DESIGN §2). */
export function proofOutcome(behaviourChange: boolean, head: ProofRun, base: ProofRun | undefined): { outcome: ProofOutcome; reason: string } {
  if (head.problem !== undefined) return { outcome: "error", reason: `on the head: ${head.problem}` };
  if (head.exitCode === 0) return { outcome: "not reproduced", reason: "the command passed on the head" };
  if (!behaviourChange) {
    const before = base === undefined || base.problem !== undefined ? "" : base.exitCode === 0 ? "; it passes on the base" : "; it fails on the base too";
    return { outcome: "reproduced", reason: `the command failed on the head (exit code ${head.exitCode})${before}` };
  }
  if (base === undefined) return { outcome: "error", reason: "the merge base could not be checked out" };
  if (base.problem !== undefined) return { outcome: "error", reason: `on the base: ${base.problem}` };
  if (base.exitCode !== 0) return { outcome: "not reproduced", reason: `the command fails on the base too (exit code ${base.exitCode}): not a change of this pull request` };
  return { outcome: "reproduced", reason: `the command failed on the head (exit code ${head.exitCode}) and passed on the base` };
}

/** What the model reads back: the outcome, each run's exit code and first failure (proof-output.ts), the budget left. */
function report(proof: Proof, left: number): string {
  const runs = [...runForModel("head", proof.head), ...(proof.base ? runForModel("base", proof.base) : [])];
  return [`Finding ${proof.finding}: ${proof.outcome.toUpperCase()} — ${proof.reason}.`, ...runs, `(${left} proof${left === 1 ? "" : "s"} left in this review's budget)`].join("\n");
}

async function prove(input: ProveInput, ctx: ToolContext): Promise<Proof> {
  const session = ctx.proof!;
  const index = session.proofs.length + 1;
  const dir = path.join(session.workDir, `proof-${index}`);
  const started = Date.now();
  const deadline = started + session.budget.seconds * 1000;
  const bounds: CopyBounds = { signal: ctx.signal, deadline, ...(session.copyLimits ?? COPY_LIMITS) };
  const files = input.files ?? [];
  const behaviourChange = input.behaviourChange === true;
  await mkdir(dir, { recursive: true });
  try {
    const home = path.join(dir, "home");
    await mkdir(home);
    const head = await copyFor(ctx.root, path.join(dir, "head"), "the checkout", bounds, session.budget.seconds);
    if ("problem" in head) return await recorded(ctx, index, { finding: input.finding, command: input.command, files, behaviourChange, outcome: "error", reason: `not proved: ${head.problem}`, head: { exitCode: null, tail: "", problem: head.problem } });
    for (const file of files) await addFile(head.copy, file);
    // Copying a large checkout counts against the proof's seconds, but the head always gets one second to run.
    const headRun = await runIn(head.copy, await realpath(home), input, ctx, `proof-${index}-head`, Math.max(1000, deadline - Date.now()));
    let baseRun: ProofRun | undefined;
    const left = deadline - Date.now();
    if (session.base.tree !== undefined && left >= 1000 && headRun.problem === undefined && headRun.exitCode !== 0) {
      const base = await copyFor(session.base.tree, path.join(dir, "base"), "the merge base", bounds, session.budget.seconds);
      if ("problem" in base) baseRun = { exitCode: null, tail: "", problem: base.problem };
      else {
        for (const file of files) await addFile(base.copy, file);
        baseRun = await runIn(base.copy, await realpath(home), input, ctx, `proof-${index}-base`, Math.max(1000, deadline - Date.now()));
      }
    } else if (input.behaviourChange === true && headRun.problem === undefined && headRun.exitCode !== 0) {
      baseRun = { exitCode: null, tail: "", problem: session.base.tree === undefined ? `the merge base could not be checked out (${session.base.error ?? "unknown"})` : "no time left of review.proofBudget.seconds" };
    }
    const proof: Proof = { finding: input.finding, command: input.command, files, behaviourChange, ...proofOutcome(behaviourChange, headRun, baseRun), head: headRun, ...(baseRun ? { base: baseRun } : {}) };
    return await recorded(ctx, index, proof);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The proof kept with the job's artifacts. */
async function recorded(ctx: ToolContext, index: number, proof: Proof): Promise<Proof> {
  await writeFile(path.join(ctx.artifactsDir, `proof-${index}.json`), `${JSON.stringify(proof, null, 2)}\n`);
  return proof;
}

export const proveTool: Tool<ProveInput> = {
  name: "prove",
  description: DESCRIPTION,
  schema,
  readOnly: false,
  run: withToolErrors(async (input, ctx) => {
    const session = ctx.proof;
    // Defence in depth: toolsFor offers prove only with a session (never on a fork's PR) and a working sandbox.
    if (session === undefined) throw new ToolError("prove is not available for this review.");
    if (!ctx.sandbox.available) throw new ToolError("prove is not available: it needs the OS sandbox.");
    if (ctx.signal.aborted) throw new ToolError("Cancelled before the proof started.");
    if (session.proofs.length >= session.budget.max) {
      throw new ToolError(`The proof budget of this review is spent (${session.budget.max} proofs, review.proofBudget.max). Submit the review; findings without a proof show as unverified.`);
    }
    for (const file of input.files ?? []) checkedRelative(file.path);
    await mkdir(ctx.artifactsDir, { recursive: true });
    const proof = await prove(input, ctx);
    session.proofs.push(proof);
    return { output: report(proof, session.budget.max - session.proofs.length), isError: proof.outcome === "error" };
  }),
};

/** The proof that counts for each finding: the last one of its index. */
export function proofsByFinding(proofs: readonly Proof[]): Map<number, Proof> {
  return new Map(proofs.map((p) => [p.finding, p]));
}
