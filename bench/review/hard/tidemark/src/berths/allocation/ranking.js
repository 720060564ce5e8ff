// How suggestions are ranked: the earliest start first (a vessel waiting at anchor costs the
// agent), then the tightest fit (keep long berths for long ships), then the most water under the
// keel, then the berth id so the order never depends on the store.

import { byKeys, byNumber, byString, descending } from "../../core/sort.js";

export const bySuggestion = byKeys(byNumber("start"), byNumber("spareLengthCm"), descending(byNumber("ukcCm")), byString("berthId"));

export function rankSuggestions(suggestions, limit) {
  return suggestions.toSorted(bySuggestion).slice(0, limit).map((s, i) => ({ rank: i + 1, ...s }));
}

/** Why the planners should prefer the first suggestion over the second, for the screen's tooltip. */
export function preferenceReason(a, b) {
  if (a.start !== b.start) return "earlier";
  if (a.spareLengthCm !== b.spareLengthCm) return "tighter fit";
  if (a.ukcCm !== b.ukcCm) return "more water";
  return "berth order";
}

/** The planners' one-line view of a ranked list: "1. B1-1 02/03 02:00 (earlier than B1-2)". */
export function explainRanking(ranked, label) {
  return ranked.map((s, i) => {
    const next = ranked[i + 1];
    const why = next ? ` (${preferenceReason(s, next)} than ${next.berthId})` : "";
    return `${s.rank}. ${s.berthId} ${label(s.start)}${why}`;
  });
}
