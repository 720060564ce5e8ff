// Summaries of a vessel's track for the VTS log: distance run, time covered and speeds. The
// track comes from the position store in time order; consecutive points give the legs.

import { distanceCm } from "./geo.js";

/** { points, from, to, distanceCm, maxSpeedCmPerS, avgSpeedCmPerS } of a time-ordered track. */
export function summariseTrack(track) {
  if (track.length === 0) return { points: 0, from: null, to: null, distanceCm: 0, maxSpeedCmPerS: 0, avgSpeedCmPerS: 0 };
  let distance = 0;
  let maxSpeed = track[0].speedCmPerS;
  for (let i = 1; i < track.length; i++) {
    distance += distanceCm(track[i - 1], track[i]);
    maxSpeed = Math.max(maxSpeed, track[i].speedCmPerS);
  }
  const from = track[0].at;
  const to = track[track.length - 1].at;
  const seconds = (to - from) / 1_000;
  return {
    points: track.length,
    from,
    to,
    distanceCm: distance,
    maxSpeedCmPerS: maxSpeed,
    avgSpeedCmPerS: seconds > 0 ? Math.round(distance / seconds) : 0,
  };
}

/** The legs between consecutive points where the vessel went faster than `limitCmPerS` (harbour speed limit). */
export function speedingLegs(track, limitCmPerS) {
  const legs = [];
  for (let i = 1; i < track.length; i++) {
    const seconds = (track[i].at - track[i - 1].at) / 1_000;
    if (seconds <= 0) continue;
    const speed = Math.round(distanceCm(track[i - 1], track[i]) / seconds);
    if (speed > limitCmPerS) legs.push({ from: track[i - 1].at, to: track[i].at, speedCmPerS: speed });
  }
  return legs;
}
