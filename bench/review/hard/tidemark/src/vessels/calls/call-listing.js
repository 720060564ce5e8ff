// The paged call listing behind the agents' portal and the harbour master's screen. Filters narrow
// the calls; the page is cut by cursor over id order like every other list in tidemark.

import { ValidationError } from "../../core/errors.js";
import { paginate } from "../../core/paging.js";
import { overlaps } from "../../core/time.js";
import { CALL_STATES } from "./call-states.js";
import { plannedStay } from "./stay.js";

function checkFilter(filter) {
  if (filter.state !== undefined && !CALL_STATES.includes(filter.state)) throw new ValidationError("state", `unknown state ${filter.state}`);
  if ((filter.from === undefined) !== (filter.to === undefined)) throw new ValidationError("from", "from and to go together");
  if (filter.from !== undefined && !(filter.to > filter.from)) throw new ValidationError("to", "must be after from");
}

/** deps.calls: the call service (allCalls). deps.register: the vessel register (findVessel). */
export function createCallListing(ctx, { calls, register }) {
  function matches(filter) {
    const window = filter.from !== undefined ? { start: filter.from, end: filter.to } : null;
    return (call) => {
      if (filter.state && call.state !== filter.state) return false;
      if (filter.vesselId && call.vesselId !== filter.vesselId) return false;
      if (filter.agentId && call.agentId !== filter.agentId) return false;
      if (window && !overlaps(plannedStay(call), window)) return false;
      if (filter.flag || filter.type) {
        const vessel = register.findVessel(call.vesselId);
        if (!vessel) return false;
        if (filter.flag && vessel.flag !== filter.flag) return false;
        if (filter.type && vessel.type !== filter.type) return false;
      }
      return true;
    };
  }

  /**
   * Calls matching `filter` ({ state, vesselId, agentId, flag, type, from, to }), one page of them:
   * { items, nextCursor }. `page` is { limit, cursor }.
   */
  function listCalls(filter = {}, page = {}) {
    checkFilter(filter);
    return paginate(calls.allCalls(matches(filter)), page, ctx.config);
  }

  /** How many calls match, without paging (the portal's badge counts). */
  function countCalls(filter = {}) {
    checkFilter(filter);
    return calls.allCalls(matches(filter)).length;
  }

  return { listCalls, countCalls };
}
