import assert from "node:assert/strict";
import { test } from "node:test";
import { DAY, HOUR } from "../../src/core/time.js";
import { T0 } from "../support/context.js";
import { classifyRange, dailyRanges, meanRangeCm, springNeapCalendar } from "../../src/berths/tides/tideStats.js";

const day = (d, lowCm, highCm) => [
  { at: T0 + d * DAY + 3 * HOUR, kind: "low", heightCm: lowCm },
  { at: T0 + d * DAY + 9 * HOUR, kind: "high", heightCm: highCm },
];

test("each day's range is its highest less its lowest water", () => {
  const ranges = dailyRanges([...day(0, 50, 380), ...day(1, 90, 330)]);
  assert.deepEqual(ranges.map((d) => [d.day, d.rangeCm]), [[T0, 330], [T0 + DAY, 240]]);
  assert.equal(meanRangeCm(ranges), 285);
  assert.equal(meanRangeCm([]), null);
});

test("springs a fifth above the mean, neaps a fifth below", () => {
  assert.equal(classifyRange(360, 300), "springs");
  assert.equal(classifyRange(359, 300), "mean");
  assert.equal(classifyRange(240, 300), "neaps");
});

test("the calendar classifies against its own period", () => {
  const cal = springNeapCalendar([...day(0, 10, 420), ...day(1, 80, 340), ...day(2, 150, 280)]);
  assert.deepEqual(cal.map((d) => d.tide), ["springs", "mean", "neaps"]);
});
