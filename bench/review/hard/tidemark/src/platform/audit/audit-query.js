// Reading the audit trail: one record's history, and the paged listing behind GET /audit.
// A time filter is a half-open { start, end } (an entry at `end` belongs to the next window).

import { paginate } from "../../core/paging.js";
import { contains } from "../../core/time.js";

export function createAuditQuery(ctx, { trail }) {
  /** Every entry about one record, oldest first. */
  function historyOf(entityType, entityId) {
    return trail.entries((e) => e.entityType === entityType && e.entityId === String(entityId));
  }

  /** Filters, then one page by cursor; `window` is optional and half-open. */
  function listEntries({ entityType, actorId, action, window, cursor, limit } = {}) {
    const matches = trail.entries(
      (e) =>
        (!entityType || e.entityType === entityType) &&
        (!actorId || e.actorId === actorId) &&
        (!action || e.action === action) &&
        (!window || contains(window, e.at)),
    );
    return paginate(matches, { cursor, limit }, ctx.config);
  }

  /** How many entries each actor made in a window, busiest first then by actor id. */
  function actorCounts(window) {
    const counts = new Map();
    for (const e of trail.entries((x) => contains(window, x.at))) counts.set(e.actorId, (counts.get(e.actorId) ?? 0) + 1);
    return [...counts].map(([actorId, n]) => ({ actorId, n })).sort((a, b) => b.n - a.n || (a.actorId < b.actorId ? -1 : 1));
  }

  return { historyOf, listEntries, actorCounts };
}
