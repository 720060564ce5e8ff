/**
 * What the insights pages show, from the figures alone (no request, no GitHub): the list of
 * repositories with their last days, and one repository's weeks as tiles and charts. Every name
 * is data (repositories, job kinds, outcomes) and goes through `esc`.
 */
import type { Figures, WeekFigures } from "../insights/types.js";
import { barChart, lineChart, type Series } from "./insights-charts.js";
import { esc } from "./html.js";

export const pct = (v: number) => `${Math.round(v * 100)}%`;
export const usd = (v: number) => (v >= 100 ? `$${v.toFixed(0)}` : `$${v.toFixed(2)}`);
const count = (v: number) => String(Math.round(v));
const rate = (v: number | null) => (v === null ? "—" : pct(v));

/** Seconds as a person reads a wait: `45s`, `12m`, `3.5h`, `2.1d`. */
export function duration(seconds: number | null): string {
  if (seconds === null) return "—";
  if (seconds < 90) return `${Math.round(seconds)}s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)}m`;
  if (seconds < 48 * 3600) return `${(seconds / 3600).toFixed(1)}h`;
  return `${(seconds / 86_400).toFixed(1)}d`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** `2026-11-30` → `Nov 30` (under the axis; the table keeps the date). */
export const shortWeek = (week: string) => {
  const m = /^\d{4}-(\d{2})-(\d{2})$/.exec(week);
  return m ? `${MONTHS[Number(m[1]) - 1] ?? m[1]} ${Number(m[2])}` : week;
};

/** How the end states of jobs are coloured; any other state takes the palette's next colour. */
const OUTCOME_COLORS: Record<string, string> = { succeeded: "#1a7f37", failed: "#cf222e", cancelled: "#8c959f" };

/** At most this many series in a stacked chart; the smallest rest are summed as "other". */
const MAX_PARTS = 8;

/** One series per key of the weekly records, largest total first (drawn at the bottom of the stack). */
export function partsOf(weeks: readonly Record<string, number>[], colors: Record<string, string> = {}): Series[] {
  const totals = new Map<string, number>();
  for (const week of weeks) for (const [key, v] of Object.entries(week)) if (Number.isFinite(v)) totals.set(key, (totals.get(key) ?? 0) + v);
  const keys = [...totals].filter(([, t]) => t > 0).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k]) => k);
  const kept = keys.length > MAX_PARTS ? keys.slice(0, MAX_PARTS - 1) : keys;
  const rest = keys.slice(kept.length);
  const series: Series[] = kept.map((key) => ({ name: key, values: weeks.map((w) => w[key] ?? 0), ...(colors[key] ? { color: colors[key] } : {}) }));
  if (rest.length > 0) series.push({ name: "other", values: weeks.map((w) => rest.reduce((sum, k) => sum + (w[k] ?? 0), 0)), color: "#6e7781" });
  return series;
}

/** The time-to-first-review axis in the unit that suits the longest wait, so its ticks are round. */
function waitUnit(weeks: WeekFigures[]): { seconds: number; name: string; suffix: string } {
  const longest = Math.max(0, ...weeks.map((w) => w.firstReviewSeconds.median ?? 0));
  if (longest < 2 * 3600) return { seconds: 60, name: "minutes", suffix: "m" };
  if (longest < 3 * 86_400) return { seconds: 3600, name: "hours", suffix: "h" };
  return { seconds: 86_400, name: "days", suffix: "d" };
}

/** The repository page's charts, in the order they are shown. */
export function charts(weeks: WeekFigures[]): string[] {
  const base = { x: weeks.map((w) => w.week), xTick: shortWeek, xLabel: "Week (from Monday, UTC)" };
  const rates = (which: "resolution" | "dismissal"): Series[] => [
    { name: "reproduced", values: weeks.map((w) => w.rates.reproduced[which]) },
    { name: "unverified", values: weeks.map((w) => w.rates.unverified[which]), dashed: true },
  ];
  const unit = waitUnit(weeks);
  return [
    lineChart({ ...base, id: "resolution", title: "Resolution rate", yLabel: "fixed ÷ posted", yMin: 1, format: pct, series: rates("resolution"), empty: "No pull request with findings merged in these weeks" }),
    lineChart({ ...base, id: "dismissal", title: "Dismissal rate", yLabel: "dismissed ÷ posted", yMin: 1, format: pct, series: rates("dismissal"), empty: "No pull request with findings ended in these weeks" }),
    barChart({
      ...base,
      id: "volume",
      title: "Reviews and findings",
      yLabel: "per week",
      integer: true,
      format: count,
      series: [
        { name: "reviews", values: weeks.map((w) => w.reviews) },
        { name: "findings posted", values: weeks.map((w) => w.findingsPosted) },
      ],
    }),
    barChart({ ...base, id: "cost", title: "Cost by job kind", yLabel: "USD", format: usd, series: partsOf(weeks.map((w) => w.cost.byKindUsd)), empty: "No cost recorded in these weeks" }, { stacked: true }),
    lineChart({
      ...base,
      id: "first-review",
      title: "Time to first review (median)",
      yLabel: unit.name,
      format: (v) => `${Math.round(v * 10) / 10}${unit.suffix}`,
      series: [{ name: "median from opening", values: weeks.map((w) => (w.firstReviewSeconds.median === null ? null : w.firstReviewSeconds.median / unit.seconds)) }],
      empty: "No first review in these weeks",
    }),
    barChart({ ...base, id: "outcomes", title: "Jobs by outcome", yLabel: "jobs", integer: true, format: count, series: partsOf(weeks.map((w) => w.jobs.byOutcome), OUTCOME_COLORS), empty: "No job ended in these weeks" }, { stacked: true }),
  ];
}

/** The period's totals, read before the charts. */
function tiles(total: Figures): string {
  const { all, reproduced, unverified } = total.rates;
  const tile = (label: string, value: string, note = "") => `<div class="tile"><dt>${esc(label)}</dt><dd>${esc(value)}${note ? `<span class="muted">${esc(note)}</span>` : ""}</dd></div>`;
  return `<dl class="tiles">${[
    tile("Reviews", count(total.reviews)),
    tile("Findings posted", count(total.findingsPosted)),
    tile("Resolution rate", rate(all.resolution), `reproduced ${rate(reproduced.resolution)} · unverified ${rate(unverified.resolution)}`),
    tile("Dismissal rate", rate(all.dismissal), `reproduced ${rate(reproduced.dismissal)} · unverified ${rate(unverified.dismissal)}`),
    tile("Cost", usd(total.cost.totalUsd), total.cost.perReviewUsd === null ? "" : `${usd(total.cost.perReviewUsd)} per review`),
    tile("First review (median)", duration(total.firstReviewSeconds.median), `${count(total.firstReviewSeconds.count)} pull requests`),
  ].join("")}</dl>`;
}

export const PERIODS = [4, 12, 26, 52] as const;

/** `/insights/<owner>/<repo>`, each part encoded (the name is data). */
export function insightsPath(name: string): string {
  const slash = name.indexOf("/");
  return `/insights/${encodeURIComponent(name.slice(0, slash))}/${encodeURIComponent(name.slice(slash + 1))}`;
}

export function repoInsights(name: string, period: number, total: Figures, weeks: WeekFigures[]): string {
  const periods = PERIODS.map((n) => (n === period ? `<b>${n} weeks</b>` : `<a href="${esc(insightsPath(name))}?weeks=${n}">${n} weeks</a>`)).join(" · ");
  return `<p class="muted"><a href="/insights">Insights</a> / ${esc(name)}</p>
<h1 class="page-title">${esc(name)}</h1>
<p class="muted">The last ${period} weeks (this one so far); weeks start on Monday, UTC. <span class="periods">${periods}</span></p>
${tiles(total)}
<div class="charts">${charts(weeks).join("\n")}</div>`;
}

export interface ListedRepo {
  name: string;
  figures: Figures;
}

/**
 * `checked`: how many repositories were asked of GitHub, when there were more (how many more is not
 * said: it would count others' too); `unanswered`: GitHub failed to answer for some.
 */
export function insightsList(rows: ListedRepo[], days: number, notes: { checked?: number; unanswered?: boolean } = {}): string {
  const { checked } = notes;
  const body = rows.map(({ name, figures: f }) => `<tr data-repo="${esc(name)}"><td><a href="${esc(insightsPath(name))}">${esc(name)}</a></td><td>${count(f.reviews)}</td><td>${count(f.findingsPosted)}</td><td>${rate(f.rates.all.resolution)}</td><td class="hide-sm">${rate(f.rates.all.dismissal)}</td><td>${esc(usd(f.cost.totalUsd))}</td></tr>`);
  const more = checked === undefined ? "" : `<p class="muted">Of the repositories with figures that the app's installations do not list for you, only the first ${checked} (by name) were looked at; open another as <code>/insights/&lt;owner&gt;/&lt;repo&gt;</code>.</p>`;
  return `<h1 class="page-title">Insights</h1>
<p class="muted">The last ${days} days of the repositories you can read. Open one for its weeks, drawn.</p>
<div class="scroll"><table><thead><tr><th>Repository</th><th>Reviews</th><th>Findings</th><th>Resolution</th><th class="hide-sm">Dismissal</th><th>Cost</th></tr></thead>
<tbody>${body.join("\n") || `<tr><td colspan="6" class="muted">No repository you can read has figures yet.</td></tr>`}</tbody></table></div>${more}${notes.unanswered ? `<p class="note warn">GitHub did not answer whether you can read some repositories: they are left out. Reload in a moment.</p>` : ""}`;
}
