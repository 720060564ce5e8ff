/** `/crewbot insights`: the repository's last 30 days in one small table. Pure. */
import { formatCost, formatDuration } from "../report/format.js";
import { DAY_MS } from "./figures.js";
import type { Figures, Rates } from "./types.js";

/** The period the reply shows. */
export const INSIGHTS_REPLY_DAYS = 30;

export const insightsPeriod = (now: number): { from: number; to: number } => ({ from: now - INSIGHTS_REPLY_DAYS * DAY_MS, to: now });

const percent = (rate: number | null): string => (rate === null ? "–" : `${Math.round(rate * 100)}%`);

const threeRates = (rates: Figures["rates"], which: keyof Rates): string => `${percent(rates.reproduced[which])} / ${percent(rates.unverified[which])} / ${percent(rates.all[which])}`;

/** Seconds as a person reads a wait: `45s`, `12m 05s`, `3.5 h`, `2.1 days`. */
export function formatWait(seconds: number): string {
  if (seconds < 3600) return formatDuration(seconds * 1000);
  if (seconds < 2 * 86_400) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86_400).toFixed(1)} days`;
}

/** The reply: the figures of `repo` over their period, and where the weekly page is. */
export function renderInsights(repo: string, f: Figures, publicUrl: string): string {
  const first = f.firstReviewSeconds;
  const rows = [
    ["Reviews", String(f.reviews)],
    ["Findings posted", String(f.findingsPosted)],
    ["Resolution rate (reproduced / unverified / all)", threeRates(f.rates, "resolution")],
    ["Dismissal rate (reproduced / unverified / all)", threeRates(f.rates, "dismissal")],
    ["Cost", `${formatCost(f.cost.totalUsd)}${f.cost.perReviewUsd === null ? "" : ` (${formatCost(f.cost.perReviewUsd)} per review)`}`],
    ["Median time to first review", first.median === null ? "–" : `${formatWait(first.median)} (${first.count} pull request${first.count === 1 ? "" : "s"})`],
  ];
  return [
    `**crewbot insights** for ${repo}`,
    "",
    `| | Last ${INSIGHTS_REPLY_DAYS} days |`,
    "|---|---:|",
    ...rows.map(([what, value]) => `| ${what} | ${value} |`),
    "",
    "Resolution: findings fixed by a push ÷ findings posted, on pull requests merged in the period. " +
      "Dismissal: findings a writer dismissed or resolved without a change ÷ findings posted, on pull requests merged or closed in the period. " +
      "– when there was nothing to count.",
    `Week by week: ${publicUrl.replace(/\/+$/, "")}/insights`,
  ].join("\n");
}
