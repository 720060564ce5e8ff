/**
 * bench:review's learnings pass: what the team's dismissals buy. After the first pass the oracle
 * (the team, who know which findings are wrong) dismisses every critical or warning finding on the
 * clean cases; a kind of finding dismissed `proposeAfter` times (2, the config's default) becomes
 * a learning, worded as crewbot's learnings pull request words it, unless the team vetoes it (the
 * same kind found a real bug in the first pass: merging it would hide bugs). The learnings file is
 * then "merged": committed on each case's default branch as `.github/crewbot/learnings.md`, read
 * back through the path a review job uses (the default branch's files, confined and capped), and
 * every case is reviewed again. False positives on the clean cases before and after; recall on
 * the bug cases before and after.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { readRepoLearnings, type RepoLearnings } from "../../src/context/learnings-context.js";
import { learningId, renderLearnings } from "../../src/learnings/learnings-file.js";
import { LEARNINGS_PATH } from "../../src/learnings/types.js";
import { readDefaultBranchFiles } from "../../src/jobs/default-branch.js";
import type { MaterialisedCase, ReviewCase } from "./case-set.js";
import { findsBug, score, type CaseResult, type ScoredFinding } from "./score.js";

const run = promisify(execFile);

/** The branch of a case's repository that plays its default branch once learnings are merged. */
export const DEFAULT_BRANCH = "default";
/** Dismissals of one kind before it is proposed (`learnings.proposeAfter`'s default). */
export const PROPOSE_AFTER = 2;
/** The goal: false positives on clean PRs down by half or more, recall unchanged. */
export const LEARNINGS_GOAL = 0.5;

const gated = (f: ScoredFinding) => f.severity === "critical" || f.severity === "warning";

export interface ProposedLearnings {
  /** The learnings merged, as the file holds them. */
  learnings: Array<{ id: string; kind: string; text: string }>;
  /** Kinds dismissed often enough but vetoed: they found a real bug in the first pass. */
  vetoed: string[];
  /** `.github/crewbot/learnings.md` as merged. */
  file: string;
}

/** The learning crewbot's pull request would word for a kind of finding the team dismissed. */
export const learningText = (kind: string, cases: readonly string[]) =>
  `Findings of the kind "${kind}" are false positives in this repository: don't flag them (${cases.length} dismissals: ${cases.join(", ")}).`;

/** What the team merges after the first pass of `player`: the kinds it dismissed on clean PRs, less the vetoed ones. */
export function proposeLearnings(player: string, results: readonly CaseResult[], cases: readonly ReviewCase[], proposeAfter = PROPOSE_AFTER): ProposedLearnings {
  const byId = new Map(cases.map((c) => [c.id, c]));
  const mine = results.filter((r) => r.player === player && r.status === "done");
  const dismissed = new Map<string, string[]>();
  const foundBugs = new Set<string>();
  for (const r of mine) {
    const c = byId.get(r.case)!;
    for (const f of r.findings.filter(gated)) {
      if (!f.kind) continue;
      if (c.kind === "clean") dismissed.set(f.kind, [...new Set([...(dismissed.get(f.kind) ?? []), c.id])]);
      else if (findsBug(f, c)) foundBugs.add(f.kind);
    }
  }
  const due = [...dismissed].filter(([, where]) => where.length >= proposeAfter).sort(([a], [b]) => a.localeCompare(b));
  const learnings = due.filter(([kind]) => !foundBugs.has(kind)).map(([kind, where]) => {
    const text = learningText(kind, where);
    return { id: learningId(text), kind, text };
  });
  const vetoed = due.filter(([kind]) => foundBugs.has(kind)).map(([kind]) => kind);
  return { learnings, vetoed, file: renderLearnings({ learnings }) };
}

/**
 * Merges `file` on the case's default branch (a commit on its base, the head and the work tree
 * untouched) and reads it back as a review job would: the default branch's files, then the
 * learnings among them.
 */
export async function mergeLearnings(m: MaterialisedCase, file: string): Promise<RepoLearnings> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), "crewbot-bench-learnings-"));
  try {
    const env = { ...process.env, GIT_INDEX_FILE: path.join(scratch, "index"), GIT_AUTHOR_NAME: "team", GIT_AUTHOR_EMAIL: "team@example.com", GIT_COMMITTER_NAME: "team", GIT_COMMITTER_EMAIL: "team@example.com" };
    const git = async (args: string[], input?: string) => {
      const child = run("git", ["-c", "core.hooksPath=/dev/null", ...args], { cwd: m.repo, env });
      if (input !== undefined) child.child.stdin!.end(input);
      return (await child).stdout.trim();
    };
    const blob = await git(["hash-object", "-w", "--stdin"], file);
    await git(["read-tree", m.base]);
    await git(["update-index", "--add", "--cacheinfo", `100644,${blob},${LEARNINGS_PATH}`]);
    const tree = await git(["write-tree"]);
    const merged = await git(["commit-tree", tree, "-p", m.base, "-m", "Merge crewbot's learnings"]);
    await git(["update-ref", `refs/heads/${DEFAULT_BRANCH}`, merged]);
    const dest = path.join(scratch, "default-branch");
    const defaults = await readDefaultBranchFiles(m.repo, DEFAULT_BRANCH, dest);
    return await readRepoLearnings(dest, defaults);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

export interface LearningsFigures {
  player: string;
  merged: number;
  vetoed: string[];
  /** Critical and warning findings on the clean cases. */
  falsePositives: { before: number; after: number };
  recall: { before: number; after: number };
  /** What the reviewer said the learnings did in the second pass. */
  suppressed: number;
}

const fps = (results: readonly CaseResult[], player: string, clean: ReadonlySet<string>) =>
  results.filter((r) => r.player === player && clean.has(r.case)).reduce((n, r) => n + r.findings.filter(gated).length, 0);

export function learningsFigures(
  player: string,
  proposed: ProposedLearnings,
  before: readonly CaseResult[],
  after: readonly CaseResult[],
  cases: readonly ReviewCase[],
  recall: (results: readonly CaseResult[]) => number,
): LearningsFigures {
  const clean = new Set(cases.filter((c) => c.kind === "clean").map((c) => c.id));
  const suppressed = after.filter((r) => r.player === player).reduce((n, r) => n + (r.learnings ?? []).reduce((m, l) => m + l.suppressed, 0), 0);
  return {
    player,
    merged: proposed.learnings.length,
    vetoed: proposed.vetoed,
    falsePositives: { before: fps(before, player, clean), after: fps(after, player, clean) },
    recall: { before: recall(before), after: recall(after) },
    suppressed,
  };
}

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;

/** The pass's lines: the figures per player and the goals. */
export function renderLearningsPass(rows: readonly LearningsFigures[]): string {
  const lines = ["## Learnings pass: the clean PRs' false positives dismissed, the learnings merged, every case reviewed again", ""];
  for (const r of rows) {
    const { before, after } = r.falsePositives;
    const change = before === 0 ? undefined : (after - before) / before;
    const vetoed = r.vetoed.length > 0 ? `; vetoed (found a real bug): ${r.vetoed.map((k) => `"${k}"`).join(", ")}` : "";
    lines.push(
      `${r.player}: ${r.merged} learning(s) merged${vetoed}; the reviewer left out ${r.suppressed} finding(s) citing them.`,
      change === undefined
        ? `– false positives on clean PRs ${before} → ${after} (none to dismiss)`
        : `${change <= -LEARNINGS_GOAL ? "✓" : "✗"} false positives on clean PRs ${before} → ${after} (${change <= 0 ? "−" : "+"}${pct(Math.abs(change))}; goal −${pct(LEARNINGS_GOAL)} or better)`,
      `${r.recall.after >= r.recall.before ? "✓" : "✗"} recall ${pct(r.recall.before)} → ${pct(r.recall.after)} (goal: unchanged)`,
    );
  }
  return lines.join("\n");
}

/**
 * The pass for each player that reviews (not the one-pass baseline, which gets no context): its
 * learnings proposed from its first pass, merged, and every case played again with them. A player
 * with nothing to merge keeps its first figures.
 */
export async function runLearningsPass(
  players: readonly string[],
  first: readonly CaseResult[],
  cases: readonly ReviewCase[],
  again: (player: string, learningsFile: string) => Promise<CaseResult[]>,
): Promise<{ rows: LearningsFigures[]; results: CaseResult[] }> {
  const rows: LearningsFigures[] = [];
  const results: CaseResult[] = [];
  for (const player of players.filter((p) => p !== "one-pass")) {
    const proposed = proposeLearnings(player, first, cases);
    const after = proposed.learnings.length > 0 ? await again(player, proposed.file) : first.filter((r) => r.player === player);
    results.push(...after);
    rows.push(learningsFigures(player, proposed, first, after, cases, (rs) => score(player, rs, cases).recall));
  }
  return { rows, results };
}
