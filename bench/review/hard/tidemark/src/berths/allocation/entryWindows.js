// Entry windows for deep-draught vessels: when a vessel can come alongside a berth with the
// clearance the port asks for, given the tide at that moment. The allocation checks the lowest
// tide of the whole stay; this answers the pilots' other question, when the vessel may enter at
// all, and is what they plan a tidal arrival on.

import { ValidationError } from "../../core/errors.js";
import { interval } from "../../core/time.js";
import { neededTideCm, nextWindow, windowsAbove } from "../tides/tideWindows.js";

export function createEntryWindows(ctx, parts) {
  const { stores, tides, vessels } = parts;

  /** The tide height (cm over datum) a vessel needs at a berth; may be negative (any tide will do). */
  function tideNeeded(berth, vessel) {
    return neededTideCm(berth.depthCm, vessel.draughtCm, ctx.config.berthing.ukcMinCm);
  }

  /** { neededCm, windows } for a vessel at a berth within [start, end). */
  function entryWindows(berthId, vesselId, start, end) {
    const range = interval(start, end);
    const berth = stores.berths.get(berthId);
    const vessel = vessels.getVessel(vesselId);
    if (!tides.covers(range)) throw new ValidationError("end", "no tide table covers the range");
    const neededCm = tideNeeded(berth, vessel);
    return { neededCm, windows: windowsAbove(tides, range, neededCm) };
  }

  /** The first window from `from` that stays open `minutes` long (the pilotage), or null. */
  function nextEntry(berthId, vesselId, from, until, minutes) {
    const { windows } = entryWindows(berthId, vesselId, from, until);
    return nextWindow(windows, from, minutes);
  }

  return { entryWindows, nextEntry, tideNeeded };
}
