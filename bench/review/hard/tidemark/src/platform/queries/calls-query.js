// The calls a user may see, filtered and paged — what GET /calls answers. Calls come through the
// vessels port: vessels.listCalls() → [{ id, vesselId, berthId, eta, etd, status }] in id order.
// A call's stay is the half-open [eta, etd); a window keeps the calls whose stay overlaps it.

import { NotFoundError } from "../../core/errors.js";
import { paginate } from "../../core/paging.js";
import { overlaps } from "../../core/time.js";
import { authorize } from "../users/permissions.js";

export const CALL_STATUSES = Object.freeze(["expected", "berthed", "departed", "cancelled"]);

export const stayOf = (call) => ({ start: call.eta, end: call.etd });

export function createCallsQuery(ctx, { vessels, scope }) {
  function matching({ window, status, vesselId, berthId } = {}) {
    return vessels.listCalls().filter(
      (c) =>
        (!status || c.status === status) &&
        (!vesselId || c.vesselId === vesselId) &&
        (!berthId || c.berthId === berthId) &&
        (!window || overlaps(stayOf(c), window)),
    );
  }

  /** One page of the calls the user may see, in id order. */
  function visibleCalls(user, { window, status, vesselId, berthId, cursor, limit } = {}) {
    const allowed = authorize(user, "calls:read");
    const calls = scope.filter(allowed, user, matching({ window, status, vesselId, berthId }));
    return paginate(calls, { cursor, limit }, ctx.config);
  }

  /** One call, or NotFoundError — also for a call outside the user's scope. */
  function callFor(user, id) {
    const allowed = authorize(user, "calls:read");
    const call = vessels.listCalls().find((c) => c.id === id);
    if (!call) throw new NotFoundError("call", id);
    return scope.assertVisible(allowed, user, call, "call");
  }

  return { visibleCalls, callFor, matching };
}
