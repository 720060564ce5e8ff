/**
 * bench:review's figures: how often a player's critical and warning findings are right, from
 * its findings on each case and the cases' ground truth. Pure.
 */
import type { Severity } from "../../src/review/types.js";
import type { ReviewCase } from "./case-set.js";

/** One finding as the scorer sees it. */
export interface ScoredFinding {
  path: string;
  line: number;
  endLine?: number;
  severity: Severity;
  /** Its reproducer failed on the head (`prove`). */
  reproduced?: boolean;
  /** The reviewer's short normalised description of it: what a dismissal teaches (the learnings pass). */
  kind?: string;
}

export interface CaseResult {
  case: string;
  player: string;
  run: number;
  /** `done`, or what stopped it: `stopped: <budget>`, `timeout`, `crash: <message>` (no findings then). */
  status: string;
  findings: ScoredFinding[];
  costUsd: number;
  costEstimate: boolean;
  wallMs: number;
  /** The merged learnings the reviewer said it applied, with the findings each kept out (the learnings pass). */
  learnings?: Array<{ id: string; suppressed: number }>;
  /** Input tokens read from the prompt cache over all input tokens (crewbot's players). */
  cache?: number;
}

/** A finding within this many lines of a bug's lines finds it. */
export const LINE_SLACK = 3;

const gated = (f: ScoredFinding) => f.severity === "critical" || f.severity === "warning";

/** Whether the finding sits on the bug's lines (±LINE_SLACK) in the bug's file. */
export function findsBug(f: ScoredFinding, c: Pick<ReviewCase, "bugLines">): boolean {
  const end = f.endLine ?? f.line;
  return c.bugLines.some((b) => b.path === f.path && f.line <= b.to + LINE_SLACK && end >= b.from - LINE_SLACK);
}

export interface Scores {
  player: string;
  bugCases: number;
  cleanCases: number;
  /** Bug cases with a critical or warning finding on the bug's lines, over bug cases. */
  recall: number;
  /** Critical and warning findings on a bug's lines, over all critical and warning findings; undefined without any. */
  precision?: number;
  f1: number;
  /** Clean cases the gate would fail, over clean cases: `failOn: critical` (any critical finding) and `failOn: reproduced`. */
  falseBlocks: { critical: number; reproduced: number };
  /** Reproduced critical and warning findings, over all of them; undefined without any. */
  reproducedShare?: number;
  precisionReproduced?: number;
  precisionUnverified?: number;
  findings: number;
  usdPerCase: number;
  secondsPerCase: number;
  costEstimate: boolean;
  /** Runs that did not finish (`stopped`, `timeout`, `crash`): scored with the findings they had (none). */
  unfinished: number;
  /** Input tokens read from the prompt cache over all input tokens, over the runs that report it. */
  cacheShare?: number;
}

const ratio = (a: number, b: number) => (b === 0 ? undefined : a / b);
const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

export function score(player: string, results: readonly CaseResult[], cases: readonly ReviewCase[]): Scores {
  const byId = new Map(cases.map((c) => [c.id, c]));
  const mine = results.filter((r) => r.player === player);
  const caseOf = (r: CaseResult) => {
    const c = byId.get(r.case);
    if (!c) throw new Error(`a result for unknown case ${r.case}`);
    return c;
  };
  const bugRuns = mine.filter((r) => caseOf(r).kind === "bug");
  const cleanRuns = mine.filter((r) => caseOf(r).kind === "clean");
  const all = mine.flatMap((r) => r.findings.filter(gated).map((f) => ({ f, hit: findsBug(f, caseOf(r)) })));
  const hits = all.filter((x) => x.hit).length;
  const recall = ratio(bugRuns.filter((r) => r.findings.some((f) => gated(f) && findsBug(f, caseOf(r)))).length, bugRuns.length) ?? 0;
  const precision = ratio(hits, all.length);
  const reproduced = all.filter((x) => x.f.reproduced === true);
  const unverified = all.filter((x) => x.f.reproduced !== true);
  const blocks = (holds: (f: ScoredFinding) => boolean) => ratio(cleanRuns.filter((r) => r.findings.some(holds)).length, cleanRuns.length) ?? 0;
  return {
    player,
    bugCases: bugRuns.length,
    cleanCases: cleanRuns.length,
    recall,
    ...(precision !== undefined ? { precision } : {}),
    f1: precision === undefined || precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
    falseBlocks: { critical: blocks((f) => f.severity === "critical"), reproduced: blocks((f) => gated(f) && f.reproduced === true) },
    ...optional("reproducedShare", ratio(reproduced.length, all.length)),
    ...optional("precisionReproduced", ratio(reproduced.filter((x) => x.hit).length, reproduced.length)),
    ...optional("precisionUnverified", ratio(unverified.filter((x) => x.hit).length, unverified.length)),
    findings: all.length,
    usdPerCase: mean(mine.map((r) => r.costUsd)),
    secondsPerCase: mean(mine.map((r) => r.wallMs / 1000)),
    costEstimate: mine.some((r) => r.costEstimate),
    unfinished: mine.filter((r) => r.status !== "done").length,
    ...optional("cacheShare", mine.some((r) => r.cache !== undefined) ? mean(mine.flatMap((r) => (r.cache === undefined ? [] : [r.cache]))) : undefined),
  };
}

const optional = <K extends string>(key: K, value: number | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, number>));

const pct = (x: number | undefined) => (x === undefined ? "–" : `${(x * 100).toFixed(0)}%`);
const usd = (x: number, estimate: boolean) => `${estimate ? "~" : ""}$${x.toFixed(x < 1 ? 3 : 2)}`;

function table(head: string[], body: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(head), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...body.map(line)].join("\n");
}

/** What the figures are measured against (the issue's goals), and outside figures to read them by. */
export const GOALS = {
  recall: 0.8,
  precision: 0.85,
  falseBlocksReproduced: 0,
  /** crewbot's cost per case at most this many times the one-pass baseline's. */
  costRatio: 2,
};
/** The goals of each case set, against the one-pass baseline (the issue's): where reading beyond the diff must pay, and where it must not cost. */
export const SET_GOALS = {
  /** The hard set: crewbot standard's recall at least this many points above one-pass's, at a precision no lower. */
  hardRecallGain: 0.2,
  /** …at no more than this many times one-pass's cost. */
  hardCostRatio: 3,
  /** The easy set: the quick level within this many times one-pass's cost. */
  quickCostRatio: 1.5,
};

const ratioOf = (s: Scores, base: Scores) => (base.usdPerCase === 0 ? undefined : s.usdPerCase / base.usdPerCase);
const times = (x: number | undefined) => (x === undefined ? "n/a" : `${x.toFixed(2)}×`);

/** A set's own goals, for the players they name (crewbot's levels against one-pass); none when those did not play. */
export function setGoals(set: "easy" | "hard", scores: readonly Scores[]): Array<{ player: string; checks: GoalCheck[] }> {
  const find = (p: string) => scores.find((s) => s.player === p);
  const base = find("one-pass");
  if (!base) return [];
  const out: Array<{ player: string; checks: GoalCheck[] }> = [];
  const standard = find("crewbot:standard");
  if (set === "hard" && standard) {
    const cost = ratioOf(standard, base);
    out.push({
      player: standard.player,
      checks: [
        {
          goal: `hard set: recall ≥ one-pass's + ${(SET_GOALS.hardRecallGain * 100).toFixed(0)} points at precision ≥ one-pass's`,
          met: standard.recall >= base.recall + SET_GOALS.hardRecallGain - 1e-9 && (standard.precision ?? 0) >= (base.precision ?? 0),
          figure: `recall ${pct(standard.recall)} vs ${pct(base.recall)}, precision ${pct(standard.precision)} vs ${pct(base.precision)}`,
        },
        { goal: `hard set: cost ≤ ${SET_GOALS.hardCostRatio}× one-pass's`, met: cost !== undefined && cost <= SET_GOALS.hardCostRatio, figure: times(cost) },
      ],
    });
  }
  const quick = find("crewbot:quick");
  if (set === "easy" && quick) {
    const cost = ratioOf(quick, base);
    out.push({ player: quick.player, checks: [{ goal: `easy set: quick within ${SET_GOALS.quickCostRatio}× one-pass's cost`, met: cost !== undefined && cost <= SET_GOALS.quickCostRatio, figure: times(cost) }] });
  }
  return out;
}

export const ANCHORS = "anchors: Qodo F1 60 % (its published benchmark), Cursor Bugbot 78 % resolution rate (share of its findings fixed before merge) — other instruments, for orientation only";

export interface GoalCheck {
  goal: string;
  met: boolean;
  figure: string;
}

/** The goals for `player` (crewbot), the baseline's F1 and cost beside it when one ran. */
export function goals(s: Scores, baseline?: Scores): GoalCheck[] {
  const checks: GoalCheck[] = [
    { goal: `recall ≥ ${pct(GOALS.recall)} at precision ≥ ${pct(GOALS.precision)}`, met: s.recall >= GOALS.recall && (s.precision ?? 0) >= GOALS.precision, figure: `recall ${pct(s.recall)}, precision ${pct(s.precision)}` },
    { goal: "0 false blocks with failOn: reproduced", met: s.falseBlocks.reproduced === GOALS.falseBlocksReproduced, figure: `${pct(s.falseBlocks.reproduced)} of clean PRs` },
  ];
  if (baseline) {
    const costRatio = baseline.usdPerCase === 0 ? undefined : s.usdPerCase / baseline.usdPerCase;
    checks.push({
      goal: `F1 above the one-pass baseline's at ≤ ${GOALS.costRatio}× its cost`,
      met: s.f1 > baseline.f1 && costRatio !== undefined && costRatio <= GOALS.costRatio,
      figure: `F1 ${pct(s.f1)} vs ${pct(baseline.f1)}, cost ${costRatio === undefined ? "n/a" : `${costRatio.toFixed(2)}×`}`,
    });
  }
  return checks;
}

export const KEY = [
  "Key: recall = bug PRs with a critical/warning finding within ±3 lines of the bug's lines; precision = critical/warning findings on a bug's lines over all of them (clean PRs' count against it);",
  "F1 = their harmonic mean; false blocks = clean PRs whose gate would fail (failOn: critical — any critical finding; failOn: reproduced — any reproduced critical/warning finding);",
  "reproduced = critical/warning findings whose reproducer failed on the head; prec. repro / unverif. = precision of reproduced and of the other findings; – = no such finding;",
  "cache reads = input tokens read from the prompt cache over all input tokens (crewbot's players).",
].join("\n");

function caseCell(r: CaseResult | undefined, c: ReviewCase): string {
  if (!r) return "";
  const g = r.findings.filter(gated);
  const hit = g.filter((f) => findsBug(f, c)).length;
  const repro = g.filter((f) => f.reproduced).length;
  const status = r.status === "done" ? "" : ` (${r.status.slice(0, 30)})`;
  return `${hit}/${g.length}${repro > 0 ? ` 🔬${repro}` : ""}${status}`;
}

export function renderScores(title: string, cases: readonly ReviewCase[], results: readonly CaseResult[], scores: readonly Scores[], checks: Array<{ player: string; checks: GoalCheck[] }>): string {
  const players = scores.map((s) => s.player);
  const perCase = table(
    ["case", "kind", ...players],
    cases.map((c) => [c.id, c.kind === "bug" ? c.bugKind : `clean: ${c.bugKind}`, ...players.map((p) => caseCell(results.find((r) => r.case === c.id && r.player === p), c))]),
  );
  const totals = table(
    ["player", "recall", "precision", "F1", "false blocks (critical)", "false blocks (reproduced)", "reproduced", "prec. repro", "prec. unverif.", "$/case", "s/case", "cache reads"],
    scores.map((s) => [s.player, pct(s.recall), pct(s.precision), pct(s.f1), pct(s.falseBlocks.critical), pct(s.falseBlocks.reproduced), pct(s.reproducedShare), pct(s.precisionReproduced), pct(s.precisionUnverified), usd(s.usdPerCase, s.costEstimate), s.secondsPerCase.toFixed(1), pct(s.cacheShare)]),
  );
  const lines = [`## ${title}`, "", "Per case: critical/warning findings on the bug's lines / all of them (🔬 reproduced).", "", perCase, "", totals, "", KEY, ""];
  for (const { player, checks: cs } of checks) {
    lines.push(`Goals for ${player}:`, ...cs.map((g) => `${g.met ? "✓" : "✗"} ${g.goal}: ${g.figure}`));
  }
  lines.push(ANCHORS);
  const unfinished = results.filter((r) => r.status !== "done");
  if (unfinished.length > 0) lines.push("", "Runs that did not finish (scored with no findings):", ...unfinished.map((r) => `- ${r.case} ${r.player} run ${r.run}: ${r.status}`));
  return lines.join("\n");
}
