/**
 * The insights charts, drawn on the server as SVG (no script, so the pages' CSP stays as strict as
 * the job pages'): lines for rates and durations, bars for counts and costs, each with a title,
 * axis labels, a legend and the same numbers in a table. d3-scale places the bands and picks the
 * ticks; the paths are written here. A null value is a gap (a line breaks, no bar), never a zero.
 */
import { scaleBand, scaleLinear, type ScaleBand, type ScaleLinear } from "d3-scale";
import { esc } from "./html.js";

export interface Series {
  name: string;
  /** One per x position; null where nothing was measured. */
  values: (number | null)[];
  color?: string;
  dashed?: boolean;
}

export interface ChartSpec {
  /** Names the chart's elements: letters, digits and dashes. */
  id: string;
  title: string;
  /** The x positions in order (the weeks), as the table shows them. */
  x: string[];
  /** How an x position reads under the axis (shorter than the table's). */
  xTick?: (x: string) => string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  /** How a value reads on the axis, in the table and in the tooltips. */
  format: (value: number) => string;
  /** The axis goes at least this high (1 for rates), so a flat week does not fill the chart. */
  yMin?: number;
  /** Whole numbers only on the axis (counts). */
  integer?: boolean;
  /** Shown in place of the plot when no value is set. */
  empty?: string;
}

const WIDTH = 520;
const HEIGHT = 250;
const M = { top: 14, right: 14, bottom: 46, left: 58 };
const PALETTE = ["#0969da", "#bf3989", "#1a7f37", "#bc4c00", "#8250df", "#cf222e", "#6e7781", "#0550ae", "#4d2d00", "#116329"];

export const colorAt = (i: number) => PALETTE[i % PALETTE.length]!;

interface Frame {
  x: ScaleBand<number>;
  y: ScaleLinear<number, number>;
  color: (i: number) => string;
}

const n1 = (v: number) => (Math.round(v * 10) / 10).toString();

function frame(spec: ChartSpec, top: number, padding: number): Frame {
  const x = scaleBand<number>()
    .domain(spec.x.map((_, i) => i))
    .range([M.left, WIDTH - M.right])
    .padding(padding);
  const y = scaleLinear()
    .domain([0, Math.max(top, spec.yMin ?? 0) || 1])
    .nice()
    .range([HEIGHT - M.bottom, M.top]);
  return { x, y, color: (i) => spec.series[i]?.color ?? colorAt(i) };
}

/** Gridlines, tick labels and the two axis titles. */
function axes(spec: ChartSpec, { x, y }: Frame): string {
  const ticks = y.ticks(5).filter((t) => !spec.integer || Number.isInteger(t));
  const grid = ticks
    .map((t) => `<line class="grid" x1="${M.left}" x2="${WIDTH - M.right}" y1="${n1(y(t))}" y2="${n1(y(t))}"/><text class="tick" x="${M.left - 6}" y="${n1(y(t))}" text-anchor="end" dominant-baseline="middle">${esc(spec.format(t))}</text>`)
    .join("");
  // Every label while they fit (seven at most); every second, fourth… when the period is long.
  const step = Math.ceil(spec.x.length / 7);
  const labels = spec.x
    .map((week, i) => (i % step === 0 ? `<text class="tick" x="${n1(x(i)! + x.bandwidth() / 2)}" y="${HEIGHT - M.bottom + 16}" text-anchor="middle">${esc(spec.xTick ? spec.xTick(week) : week)}</text>` : ""))
    .join("");
  const baseline = `<line class="axis" x1="${M.left}" x2="${WIDTH - M.right}" y1="${n1(y(0))}" y2="${n1(y(0))}"/>`;
  const midY = (M.top + HEIGHT - M.bottom) / 2;
  const titles = `<text class="axis-title" x="${(M.left + WIDTH - M.right) / 2}" y="${HEIGHT - 6}" text-anchor="middle">${esc(spec.xLabel)}</text><text class="axis-title" transform="translate(14 ${midY}) rotate(-90)" text-anchor="middle">${esc(spec.yLabel)}</text>`;
  return grid + baseline + labels + titles;
}

/** The path through the points, lifted at each gap: `M` starts every run of set values. */
export function linePath(points: ([number, number] | null)[]): string {
  let d = "";
  let drawing = false;
  for (const p of points) {
    if (!p) {
      drawing = false;
      continue;
    }
    d += `${drawing ? "L" : "M"}${n1(p[0])},${n1(p[1])}`;
    drawing = true;
  }
  return d;
}

const isSet = (v: number | null | undefined): v is number => typeof v === "number" && Number.isFinite(v);

function maxOf(spec: ChartSpec, stacked: boolean): number {
  if (!stacked) return Math.max(0, ...spec.series.flatMap((s) => s.values.filter(isSet)));
  return Math.max(0, ...spec.x.map((_, i) => spec.series.reduce((sum, s) => sum + (isSet(s.values[i]) ? Math.max(0, s.values[i]!) : 0), 0)));
}

const tip = (spec: ChartSpec, s: Series, i: number, v: number) => `<title>${esc(spec.x[i])} · ${esc(s.name)}: ${esc(spec.format(v))}</title>`;

function emptyNote(spec: ChartSpec): string {
  const set = spec.series.some((s) => s.values.some(isSet));
  return set ? "" : `<text class="empty" x="${(M.left + WIDTH - M.right) / 2}" y="${(M.top + HEIGHT - M.bottom) / 2}" text-anchor="middle">${esc(spec.empty ?? "Nothing measured in these weeks")}</text>`;
}

function svg(spec: ChartSpec, plot: string): string {
  return `<svg class="plot" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="chart-${esc(spec.id)}-title" preserveAspectRatio="xMidYMid meet">${plot}${emptyNote(spec)}</svg>`;
}

/** Lines over the weeks, one per series, with a dot at each measured week (a lone week is still seen). */
export function lineChart(spec: ChartSpec): string {
  const f = frame(spec, maxOf(spec, false), 0.1);
  const cx = (i: number) => f.x(i)! + f.x.bandwidth() / 2;
  const lines = spec.series
    .map((s, si) => {
      const points = s.values.map((v, i) => (isSet(v) ? ([cx(i), f.y(v)] as [number, number]) : null));
      const d = linePath(points);
      const dots = s.values.map((v, i) => (isSet(v) ? `<circle cx="${n1(cx(i))}" cy="${n1(f.y(v))}" r="3.5" fill="${f.color(si)}">${tip(spec, s, i, v)}</circle>` : "")).join("");
      const path = d ? `<path class="line" d="${d}" fill="none" stroke="${f.color(si)}" stroke-width="2.2"${s.dashed ? ' stroke-dasharray="6 4"' : ""}/>` : "";
      return `<g class="series" data-series="${esc(s.name)}">${path}${dots}</g>`;
    })
    .join("");
  return figure(spec, svg(spec, axes(spec, f) + lines), "line");
}

/** Bars per week: the series side by side, or stacked (parts of one total, as cost by job kind). */
export function barChart(spec: ChartSpec, options: { stacked?: boolean } = {}): string {
  const stacked = options.stacked ?? false;
  const f = frame(spec, maxOf(spec, stacked), 0.22);
  const inner = scaleBand<number>().domain(spec.series.map((_, i) => i)).range([0, f.x.bandwidth()]).padding(0.08);
  const bars: string[] = [];
  spec.x.forEach((_, i) => {
    let base = 0;
    spec.series.forEach((s, si) => {
      const v = s.values[i];
      if (!isSet(v) || v <= 0) return;
      const x = stacked ? f.x(i)! : f.x(i)! + inner(si)!;
      const width = stacked ? f.x.bandwidth() : inner.bandwidth();
      const top = f.y(base + v);
      const height = Math.max(0.5, f.y(base) - top);
      bars.push(`<rect class="bar" data-series="${esc(s.name)}" x="${n1(x)}" y="${n1(top)}" width="${n1(width)}" height="${n1(height)}" fill="${f.color(si)}">${tip(spec, s, i, v)}</rect>`);
      if (stacked) base += v;
    });
  });
  return figure(spec, svg(spec, axes(spec, f) + bars.join("")), stacked ? "stacked" : "bars");
}

function legend(spec: ChartSpec, kind: string): string {
  const items = spec.series.map((s, i) => {
    const color = s.color ?? colorAt(i);
    const mark =
      kind === "line"
        ? `<line x1="1" x2="23" y1="6" y2="6" stroke="${color}" stroke-width="2.5"${s.dashed ? ' stroke-dasharray="5 3"' : ""}/>`
        : `<rect x="5" y="0" width="12" height="12" fill="${color}"/>`;
    return `<li><svg class="key" width="24" height="12" aria-hidden="true">${mark}</svg>${esc(s.name)}</li>`;
  });
  return `<ul class="legend">${items.join("")}</ul>`;
}

/** The chart's numbers for a screen reader, a copy, or a closer look: "—" where nothing was measured. */
function table(spec: ChartSpec): string {
  const head = `<tr><th scope="col">${esc(spec.xLabel)}</th>${spec.series.map((s) => `<th scope="col">${esc(s.name)}</th>`).join("")}</tr>`;
  const rows = spec.x.map((week, i) => `<tr><th scope="row">${esc(week)}</th>${spec.series.map((s) => `<td>${isSet(s.values[i]) ? esc(spec.format(s.values[i]!)) : "—"}</td>`).join("")}</tr>`);
  return `<details><summary>The numbers</summary><div class="scroll"><table><thead>${head}</thead><tbody>${rows.join("")}</tbody></table></div></details>`;
}

function figure(spec: ChartSpec, plot: string, kind: string): string {
  return `<figure class="chart" data-chart="${esc(spec.id)}" data-kind="${kind}"><h2 id="chart-${esc(spec.id)}-title">${esc(spec.title)}</h2>${legend(spec, kind)}${plot}${table(spec)}</figure>`;
}
