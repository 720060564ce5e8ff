// Tide statistics for the pilots' notes: each day's range between its highest and lowest water
// and whether it is a spring or a neap day. Alvarim's mean range is about 2.8 m; a day whose
// range is a fifth above the mean is called springs, a fifth below neaps.

import { startOfDay } from "../../core/time.js";

export const SPRING_NEAP_PERMILLE = 200;

/** { day, highCm, lowCm, rangeCm } per UTC day touched by the extremes, in day order. */
export function dailyRanges(extremes) {
  const days = new Map();
  for (const x of extremes) {
    const day = startOfDay(x.at);
    const d = days.get(day) ?? { day, highCm: null, lowCm: null };
    if (x.kind === "high" && (d.highCm === null || x.heightCm > d.highCm)) d.highCm = x.heightCm;
    if (x.kind === "low" && (d.lowCm === null || x.heightCm < d.lowCm)) d.lowCm = x.heightCm;
    days.set(day, d);
  }
  return [...days.values()]
    .filter((d) => d.highCm !== null && d.lowCm !== null)
    .toSorted((a, b) => a.day - b.day)
    .map((d) => ({ ...d, rangeCm: d.highCm - d.lowCm }));
}

/** The mean of the daily ranges, rounded to whole cm; null without a complete day. */
export function meanRangeCm(ranges) {
  if (ranges.length === 0) return null;
  return Math.round(ranges.reduce((sum, d) => sum + d.rangeCm, 0) / ranges.length);
}

export function classifyRange(rangeCm, meanCm) {
  if (rangeCm * 1000 >= meanCm * (1000 + SPRING_NEAP_PERMILLE)) return "springs";
  if (rangeCm * 1000 <= meanCm * (1000 - SPRING_NEAP_PERMILLE)) return "neaps";
  return "mean";
}

/** Daily ranges with their classification against the mean of the same period. */
export function springNeapCalendar(extremes) {
  const ranges = dailyRanges(extremes);
  const mean = meanRangeCm(ranges);
  return ranges.map((d) => ({ ...d, tide: classifyRange(d.rangeCm, mean) }));
}
