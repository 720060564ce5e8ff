import { describe, expect, it } from "vitest";
import { barChart, lineChart, linePath, type ChartSpec } from "../../src/web/insights-charts.js";
import { charts, duration, insightsList, partsOf, repoInsights, shortWeek } from "../../src/web/insights-html.js";
import { blank, madeUpWeek, sumOf } from "../helpers/fake-insights.js";

const WEEKS = ["2026-10-05", "2026-10-12", "2026-10-19", "2026-10-26", "2026-11-02"];
const pct = (v: number) => `${Math.round(v * 100)}%`;
const spec = (series: ChartSpec["series"], extra: Partial<ChartSpec> = {}): ChartSpec => ({ id: "t", title: "Resolution rate", x: WEEKS, xLabel: "Week", yLabel: "rate", format: pct, series, ...extra });
const all = (html: string, re: RegExp) => [...html.matchAll(re)];
const pathsOf = (html: string) => all(html, /<path class="line" d="([^"]*)"/g).map((m) => m[1]!);

describe("the insights charts (SVG drawn on the server)", () => {
  it("breaks a line at each null week: a gap, not a fall to zero", () => {
    const html = lineChart(spec([
      { name: "reproduced", values: [0.8, null, 0.75, 0.9, null] },
      { name: "unverified", values: [0.4, 0.5, 0.45, 0.5, 0.55], dashed: true },
    ], { yMin: 1 }));
    const [reproduced, unverified] = pathsOf(html);
    expect(reproduced!.match(/M/g)).toHaveLength(2);
    expect(reproduced!.match(/L/g)).toHaveLength(1);
    expect(unverified!.match(/M/g)).toHaveLength(1);
    expect(unverified!.match(/L/g)).toHaveLength(4);
    // A dot per measured week, none for the gaps; no point of the line sits on the zero line.
    expect(all(html, /<circle /g)).toHaveLength(3 + 5);
    const zeroY = /<line class="axis" x1="\d+" x2="\d+" y1="([\d.]+)"/.exec(html)![1]!;
    expect(reproduced).not.toContain(`,${zeroY}`);
    expect(html).toContain('stroke-dasharray="6 4"');
    // Rates run to 100 %, whatever the weeks' highest.
    expect(html).toContain(">100%</text>");
  });

  it("draws a lone week between gaps as a dot, and says so when nothing was measured", () => {
    expect(linePath([null, [10, 20], null, [30, 40], [50, 60]])).toBe("M10,20M30,40L50,60");
    const lone = lineChart(spec([{ name: "median", values: [null, null, 12, null, null] }]));
    expect(all(lone, /<circle /g)).toHaveLength(1);
    const none = lineChart(spec([{ name: "median", values: [null, null, null, null, null] }], { empty: "No first review in these weeks" }));
    expect(pathsOf(none)).toEqual([]);
    expect(none).toContain("No first review in these weeks");
    expect(all(none, /<td>—<\/td>/g)).toHaveLength(5);
  });

  it("draws a bar per series and week side by side, none for a null or zero week", () => {
    const html = barChart(spec([
      { name: "reviews", values: [12, 0, 9, null, 20] },
      { name: "findings posted", values: [18, 3, 11, 4, 30] },
    ], { integer: true, format: String }));
    const bars = all(html, /<rect class="bar" data-series="([^"]+)" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/g);
    expect(bars.filter((b) => b[1] === "reviews")).toHaveLength(3);
    expect(bars.filter((b) => b[1] === "findings posted")).toHaveLength(5);
    for (const b of bars) expect(Number(b[4])).toBeGreaterThan(0);
    // Only whole numbers on a count axis.
    const ticks = all(html, /<text class="tick" x="\d+" y="[\d.]+" text-anchor="end"[^>]*>([^<]*)</g).map((m) => m[1]!);
    expect(ticks.length).toBeGreaterThan(2);
    for (const t of ticks) expect(t).toMatch(/^\d+$/);
  });

  it("stacks the parts of a week's total, each on the one below", () => {
    const html = barChart(spec([
      { name: "review", values: [3, 2, 4, 0, 5] },
      { name: "implement", values: [1, null, 2, 0, 1.5] },
    ], { format: (v) => `$${v.toFixed(2)}` }), { stacked: true });
    const bars = all(html, /<rect class="bar" data-series="([^"]+)" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/g);
    expect(bars).toHaveLength(7);
    const first = bars.filter((b) => b[2] === bars[0]![2]);
    expect(first.map((b) => b[1])).toEqual(["review", "implement"]);
    const [bottom, top] = first;
    expect(Number(top![3]) + Number(top![5])).toBeCloseTo(Number(bottom![3]), 0);
    expect(html).toContain('data-kind="stacked"');
  });

  it("gives every chart a title, axis titles, a legend and the same numbers in a table", () => {
    const html = lineChart(spec([{ name: "reproduced", values: [0.8, null, 0.75, 0.9, 0.5] }], { xTick: shortWeek }));
    expect(html).toMatch(/<h2 id="chart-t-title">Resolution rate<\/h2>/);
    expect(html).toContain('aria-labelledby="chart-t-title"');
    expect(html).toMatch(/class="axis-title"[^>]*>Week</);
    expect(html).toMatch(/class="axis-title"[^>]*>rate</);
    expect(html).toMatch(/<ul class="legend"><li>.*reproduced<\/li><\/ul>/);
    expect(html).toContain(">Oct 5</text>");
    const rows = all(html, /<tr><th scope="row">([^<]+)<\/th><td>([^<]+)<\/td><\/tr>/g).map((m) => [m[1], m[2]]);
    expect(rows).toEqual([["2026-10-05", "80%"], ["2026-10-12", "—"], ["2026-10-19", "75%"], ["2026-10-26", "90%"], ["2026-11-02", "50%"]]);
  });

  it("escapes every name it is given: titles, series, weeks", () => {
    const hostile = `<script>alert(1)</script>"'&`;
    const html = barChart(spec([{ name: hostile, values: [1, 2, 3, 4, 5] }], { title: hostile, x: WEEKS.map(() => `<img src=x onerror=alert(2)>`), xLabel: hostile, yLabel: hostile }));
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;");
  });
});

describe("the insights pages' content", () => {
  const mondays = Array.from({ length: 12 }, (_, i) => Date.UTC(2026, 8, 14) + i * 7 * 86_400_000);
  const weeks = mondays.map((m) => madeUpWeek("acme/widgets", m));

  it("draws six charts of a repository's weeks, its quiet weeks as gaps", () => {
    const drawn = charts(weeks);
    expect(drawn.map((c) => /data-chart="([^"]+)"/.exec(c)![1])).toEqual(["resolution", "dismissal", "volume", "cost", "first-review", "outcomes"]);
    const quiet = weeks.findIndex((w) => w.reviews === 0);
    expect(quiet).toBeGreaterThanOrEqual(0);
    const resolution = drawn[0]!;
    const unverified = pathsOf(resolution)[1]!;
    expect(unverified.match(/M/g)!.length).toBe(2);
    expect(resolution).toContain(`<tr><th scope="row">${weeks[quiet]!.week}</th><td>—</td><td>—</td></tr>`);
    // Cost by job kind: one stacked bar per kind and week with a cost.
    const costBars = all(drawn[3]!, /<rect class="bar"/g).length;
    expect(costBars).toBe(weeks.reduce((n, w) => n + Object.values(w.cost.byKindUsd).filter((v) => v > 0).length, 0));
  });

  it("keeps a stacked chart readable: at most eight parts, the smallest summed as other", () => {
    const many = [Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`kind-${i}`, 11 - i]))];
    const parts = partsOf(many);
    expect(parts.map((p) => p.name)).toEqual(["kind-0", "kind-1", "kind-2", "kind-3", "kind-4", "kind-5", "kind-6", "other"]);
    expect(parts.at(-1)!.values).toEqual([4 + 3 + 2 + 1]);
  });

  it("says a wait as a person reads it", () => {
    expect([duration(null), duration(42), duration(720), duration(3.5 * 3600), duration(2.1 * 86_400)]).toEqual(["—", "42s", "12m", "3.5h", "2.1d"]);
  });

  it("escapes a repository's name on both pages, in text and in links", () => {
    const hostile = `acme/<script>alert(1)</script>"x`;
    const total = sumOf(weeks, mondays[0]!, mondays[11]! + 1);
    const repo = repoInsights(hostile, 12, total, [blank(mondays[0]!)]);
    const list = insightsList([{ name: hostile, figures: total }], 30);
    for (const html of [repo, list]) {
      expect(html).not.toContain("<script");
      expect(html).toContain("acme/&lt;script&gt;alert(1)&lt;/script&gt;&quot;x");
      expect(html).toContain("/insights/acme/%3Cscript%3Ealert(1)%3C%2Fscript%3E%22x");
    }
  });
});
