// Allocation suggestions: where and when a vessel could come alongside within a range. For each
// berth the vessel fits, the earliest free window long enough for the stay whose tide and fender
// checks pass gives one suggestion; suggestions are then ranked (ranking.js).

import { MINUTE } from "../../core/time.js";
import { fitReasons, spareLengthCm } from "../plan/fit.js";
import { freeWindows } from "../plan/gaps.js";
import { readRequest } from "./request.js";
import { rankSuggestions } from "./ranking.js";

export function createAllocation(ctx, parts) {
  const { stores, vessels, planView, bookable } = parts;

  function candidateIn(berth, vessel, window, stayMinutes) {
    const stay = { start: window.start, end: window.start + stayMinutes * MINUTE };
    const verdict = bookable.check({ berth, vessel, stay });
    return verdict.ok ? { stay, clearance: verdict.clearance } : null;
  }

  function suggestAt(berth, request) {
    const { vessel, range, stayMinutes } = request;
    if (fitReasons(berth, vessel).length > 0) return null;
    const busy = [...planView.forBerth(berth.id), ...parts.closures.closuresOverlapping(berth.id, range)];
    for (const window of freeWindows(busy, range, stayMinutes)) {
      const found = candidateIn(berth, vessel, window, stayMinutes);
      if (!found) continue;
      return {
        berthId: berth.id,
        quayId: berth.quayId,
        start: found.stay.start,
        end: found.stay.end,
        spareLengthCm: spareLengthCm(berth, vessel),
        ukcCm: found.clearance.ukcCm,
      };
    }
    return null;
  }

  /** input: { vesselId, earliest, latest, stayMinutes, limit?, berthIds? } → ranked suggestions. */
  function suggest(input) {
    const request = readRequest(ctx, vessels, input);
    const berths = stores.berths.list((b) => request.berthIds === null || request.berthIds.includes(b.id));
    const suggestions = berths.map((b) => suggestAt(b, request)).filter(Boolean);
    return rankSuggestions(suggestions, request.limit);
  }

  return { suggest };
}
