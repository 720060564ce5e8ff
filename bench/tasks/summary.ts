/** The bench's figures from its attempts: per task and in total, per scaffold, and the table that shows them. */
import { SCAFFOLDS, type Attempt, type Scaffold } from "./run-suite.js";

export interface Figures {
  /** Resolved attempts over all attempts (0..1). */
  resolveRate: number;
  /** With several runs: the lowest and highest resolve rate of one run over all tasks. */
  spread?: { min: number; max: number };
  usdPerTask: number;
  secondsPerTask: number;
  turnsPerTask: number;
  costEstimate: boolean;
}

export interface TaskRow {
  task: string;
  by: Record<Scaffold, { resolved: number; attempts: number; usd: number; turns: number; seconds: number; statuses: string[] }>;
}

export interface Summary {
  rows: TaskRow[];
  totals: Record<Scaffold, Figures>;
  /** crewbot ÷ baseline; undefined where the baseline's figure is 0. */
  ratios: { resolveRate?: number; usdPerTask?: number; secondsPerTask?: number };
  /** Attempts that timed out or crashed (never resolved). */
  failures: Array<Pick<Attempt, "task" | "run" | "scaffold" | "status">>;
}

const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
const ratio = (a: number, b: number) => (b === 0 ? undefined : a / b);

function figures(attempts: Attempt[]): Figures {
  const runs = [...new Set(attempts.map((a) => a.run))];
  const perRun = runs.map((r) => {
    const of = attempts.filter((a) => a.run === r);
    return of.filter((a) => a.resolved).length / of.length;
  });
  return {
    resolveRate: attempts.length === 0 ? 0 : attempts.filter((a) => a.resolved).length / attempts.length,
    ...(runs.length > 1 ? { spread: { min: Math.min(...perRun), max: Math.max(...perRun) } } : {}),
    usdPerTask: mean(attempts.map((a) => a.costUsd)),
    secondsPerTask: mean(attempts.map((a) => a.wallMs / 1000)),
    turnsPerTask: mean(attempts.map((a) => a.turns)),
    costEstimate: attempts.some((a) => a.costEstimate),
  };
}

export function summarise(attempts: Attempt[]): Summary {
  const tasks = [...new Set(attempts.map((a) => a.task))];
  const rows = tasks.map((task) => {
    const by = {} as TaskRow["by"];
    for (const s of SCAFFOLDS) {
      const of = attempts.filter((a) => a.task === task && a.scaffold === s);
      by[s] = {
        resolved: of.filter((a) => a.resolved).length,
        attempts: of.length,
        usd: mean(of.map((a) => a.costUsd)),
        turns: mean(of.map((a) => a.turns)),
        seconds: mean(of.map((a) => a.wallMs / 1000)),
        statuses: [...new Set(of.map((a) => a.status))],
      };
    }
    return { task, by };
  });
  const totals = Object.fromEntries(SCAFFOLDS.map((s) => [s, figures(attempts.filter((a) => a.scaffold === s))])) as Record<Scaffold, Figures>;
  const c = totals.crewbot;
  const b = totals.baseline;
  return {
    rows,
    totals,
    ratios: { resolveRate: ratio(c.resolveRate, b.resolveRate), usdPerTask: ratio(c.usdPerTask, b.usdPerTask), secondsPerTask: ratio(c.secondsPerTask, b.secondsPerTask) },
    failures: attempts.filter((a) => a.status === "timeout" || a.status.startsWith("crash")).map(({ task, run, scaffold, status }) => ({ task, run, scaffold, status })),
  };
}

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
const usd = (x: number, estimate = false) => `${estimate ? "~" : ""}$${x.toFixed(x < 1 ? 3 : 2)}`;
const times = (x: number | undefined) => (x === undefined ? "n/a" : `${x.toFixed(2)}×`);

function cell(r: TaskRow["by"][Scaffold]): string[] {
  const resolved = r.attempts === 1 ? (r.resolved === 1 ? "yes" : "no") : `${r.resolved}/${r.attempts}`;
  const status = r.statuses.filter((s) => s !== "done");
  return [status.length > 0 ? `${resolved} (${status.join("; ").slice(0, 40)})` : resolved, usd(r.usd), r.turns.toFixed(r.attempts === 1 ? 0 : 1), `${r.seconds.toFixed(1)}s`];
}

function table(head: string[], body: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(head), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...body.map(line)].join("\n");
}

export function renderSummary(summary: Summary, title: string): string {
  const head = ["task", "crewbot resolved", "cost", "turns", "time", "baseline resolved", "cost", "turns", "time"];
  const body = summary.rows.map((r) => [r.task, ...cell(r.by.crewbot), ...cell(r.by.baseline)]);
  const total = (s: Scaffold) => {
    const f = summary.totals[s];
    const spread = f.spread ? ` (runs ${pct(f.spread.min)}–${pct(f.spread.max)})` : "";
    return `${s.padEnd(8)}: resolved ${pct(f.resolveRate)}${spread}, ${usd(f.usdPerTask, f.costEstimate)}/task, ${f.secondsPerTask.toFixed(1)} s/task, ${f.turnsPerTask.toFixed(1)} turns/task`;
  };
  const { ratios } = summary;
  const lines = [
    `## ${title}`,
    "",
    table(head, body),
    "",
    total("crewbot"),
    total("baseline"),
    `crewbot ÷ baseline: resolve rate ${times(ratios.resolveRate)}, $/task ${times(ratios.usdPerTask)}, s/task ${times(ratios.secondsPerTask)}`,
  ];
  if (summary.failures.length > 0) {
    lines.push("", "Timeouts and crashes (not resolved):", ...summary.failures.map((f) => `- ${f.task} run ${f.run} ${f.scaffold}: ${f.status}`));
  }
  return lines.join("\n");
}
