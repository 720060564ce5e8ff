/** The figures' arithmetic and the reply's table, apart from any store. */
import { describe, expect, it } from "vitest";
import type { InsightEvent } from "../../src/insights/events.js";
import { figuresOf, median, weekStart, weeksOf } from "../../src/insights/figures.js";
import { formatWait, renderInsights } from "../../src/insights/render-insights.js";

const DAY = 86_400_000;
const ZERO_ENDS = { fixed: 0, dismissed: 0, open: 0 };

describe("the figures", () => {
  it("median: the middle one, the mean of the two middle ones, none for nothing", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });

  it("weeks start on Monday 00:00 UTC, whatever the day and hour", () => {
    const monday = Date.UTC(2026, 10, 30);
    expect(weekStart(monday)).toBe(monday);
    expect(weekStart(Date.UTC(2026, 11, 6, 23, 59))).toBe(monday); // a Sunday night
    expect(weekStart(Date.UTC(2026, 11, 7, 0, 0))).toBe(monday + 7 * DAY);
  });

  it("a range that starts mid-week: each week clipped to it, so the weeks add up to the range", () => {
    const from = Date.UTC(2026, 10, 4); // a Wednesday
    const to = Date.UTC(2026, 10, 18);
    const events: InsightEvent[] = [
      { type: "review", key: "a", at: from + DAY, number: 1, findings: { reproduced: 0, unverified: 2 } },
      { type: "review", key: "b", at: from - DAY, number: 1, findings: { reproduced: 0, unverified: 5 } },
      { type: "review", key: "c", at: to - 1, number: 2, findings: { reproduced: 1, unverified: 0 } },
    ];
    const weeks = weeksOf(events, from, to);
    expect(weeks.map((w) => [w.week, w.from, w.to, w.findingsPosted])).toEqual([
      ["2026-11-02", from, Date.UTC(2026, 10, 9), 2],
      ["2026-11-09", Date.UTC(2026, 10, 9), Date.UTC(2026, 10, 16), 0],
      ["2026-11-16", Date.UTC(2026, 10, 16), to, 1],
    ]);
    expect(figuresOf(events, from, to).findingsPosted).toBe(3);
  });

  it("closed pull requests count for dismissal only; a first review without an opening time is not a wait", () => {
    const f = figuresOf(
      [
        { type: "pull-request", key: "1", at: 10, number: 1, merged: false, ends: { reproduced: ZERO_ENDS, unverified: { fixed: 1, dismissed: 1, open: 2 } } },
        { type: "first-review", key: "1", at: 5, number: 1 },
      ],
      0,
      100,
    );
    expect(f.rates).toEqual({ reproduced: { resolution: null, dismissal: null }, unverified: { resolution: null, dismissal: 0.25 }, all: { resolution: null, dismissal: 0.25 } });
    expect(f.firstReviewSeconds).toEqual({ median: null, count: 0 });
    expect(f.cost).toEqual({ totalUsd: 0, perReviewUsd: null, byKindUsd: {} });
  });
});

describe("the /crewbot insights table", () => {
  it("says – for rates and a median it has nothing for, and no per-review cost without reviews", () => {
    const body = renderInsights("octo/hello", figuresOf([], 0, 30 * DAY), "https://crewbot.example.com/");
    expect(body).toContain("| Reviews | 0 |\n| Findings posted | 0 |\n| Resolution rate (reproduced / unverified / all) | – / – / – |");
    expect(body).toContain("| Cost | $0.0000 |\n| Median time to first review | – |");
    expect(body.endsWith("Week by week: https://crewbot.example.com/insights")).toBe(true);
  });

  it("waits read as seconds, minutes, hours or days", () => {
    expect([formatWait(45), formatWait(725), formatWait(5400), formatWait(3 * 86_400)]).toEqual(["45s", "12m 05s", "1.5 h", "3.0 days"]);
  });
});
