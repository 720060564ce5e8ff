// The last known positions of vessels and a short track of each. The receiver repeats itself, so a
// position is kept once per vessel and timestamp; a late, older report joins the track in time
// order but does not replace the latest position.

import { contains } from "../../core/time.js";

export const TRACK_LENGTH = 200;

export function createPositionStore(ctx) {
  const latest = new Map();
  const tracks = new Map();

  /**
   * Keeps a parsed position of a vessel. Returns true when it was new, false when the vessel
   * already has a position with that timestamp.
   */
  function record(vesselId, position) {
    const track = tracks.get(vesselId) ?? [];
    if (track.some((p) => p.at === position.at)) return false;
    const entry = Object.freeze({ ...position, vesselId, receivedAt: ctx.clock.now(), stale: false });
    const next = [...track, entry].toSorted((a, b) => a.at - b.at).slice(-TRACK_LENGTH);
    tracks.set(vesselId, next);
    const current = latest.get(vesselId);
    if (!current || entry.at > current.at) latest.set(vesselId, entry);
    return true;
  }

  /** The newest position of a vessel, or null when none was received. */
  const latestOf = (vesselId) => latest.get(vesselId) ?? null;

  /** The vessel's track in time order, optionally only the part inside a half-open window. */
  function trackOf(vesselId, window = null) {
    const track = tracks.get(vesselId) ?? [];
    return window ? track.filter((p) => contains(window, p.at)) : [...track];
  }

  /** Flags the latest position as stale (the sweeper does this); true when it changed. */
  function markStale(vesselId) {
    const current = latest.get(vesselId);
    if (!current || current.stale) return false;
    latest.set(vesselId, Object.freeze({ ...current, stale: true }));
    return true;
  }

  return {
    record,
    latestOf,
    trackOf,
    markStale,
    allLatest: () => [...latest.values()],
    forget(vesselId) {
      latest.delete(vesselId);
      tracks.delete(vesselId);
    },
  };
}
