// Distances on the water between AIS positions (micro-degrees), in whole centimetres, and the port
// limits of Alvarim as a box: close enough for the VTS, which draws the real line on its chart.

const EARTH_RADIUS_CM = 637_100_000;
const rad = (e6) => (e6 / 1_000_000) * (Math.PI / 180);

/** Great-circle distance between two positions, rounded once to whole cm. */
export function distanceCm(a, b) {
  const dLat = rad(b.latE6 - a.latE6);
  const dLon = rad(b.lonE6 - a.lonE6);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latE6)) * Math.cos(rad(b.latE6)) * Math.sin(dLon / 2) ** 2;
  return Math.round(2 * EARTH_RADIUS_CM * Math.asin(Math.min(1, Math.sqrt(h))));
}

export const NAUTICAL_MILE_CM = 185_200;

export const distanceNm = (a, b) => distanceCm(a, b) / NAUTICAL_MILE_CM;

export const PORT_LIMITS = Object.freeze({ south: 38_400_000, north: 38_520_000, west: -9_120_000, east: -8_950_000 });

export const ANCHORAGE = Object.freeze({ latE6: 38_430_000, lonE6: -9_080_000, radiusCm: 185_200 });

export function insidePortLimits(position, limits = PORT_LIMITS) {
  return position.latE6 >= limits.south && position.latE6 < limits.north && position.lonE6 >= limits.west && position.lonE6 < limits.east;
}

export const atAnchorage = (position, anchorage = ANCHORAGE) => distanceCm(position, anchorage) <= anchorage.radiusCm;

/** Hours to cover `cm` at `speedCmPerS`; null when the vessel is not moving. */
export function hoursToGo(cm, speedCmPerS) {
  if (!speedCmPerS) return null;
  return cm / speedCmPerS / 3_600;
}
