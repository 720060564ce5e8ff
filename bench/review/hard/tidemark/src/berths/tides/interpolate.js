// Height of the tide between two extremes. The Alvarim tide is semi-diurnal and close to a sine,
// so between a high and a low water the height follows half a cosine ("the rule of the cosine"
// the pilots use). The result is rounded to whole cm once, here.

export function cosineHeight(from, to, t) {
  if (t <= from.at) return from.heightCm;
  if (t >= to.at) return to.heightCm;
  const fraction = (t - from.at) / (to.at - from.at);
  const height = from.heightCm + ((to.heightCm - from.heightCm) * (1 - Math.cos(Math.PI * fraction))) / 2;
  return Math.round(height);
}

/** Index of the last extreme at or before t in a time-ordered list, -1 when t is before all. */
export function lastAtOrBefore(extremes, t) {
  let lo = 0;
  let hi = extremes.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (extremes[mid].at <= t) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/** The tidal range between two neighbouring extremes, in cm. */
export const rangeCm = (a, b) => Math.abs(a.heightCm - b.heightCm);
