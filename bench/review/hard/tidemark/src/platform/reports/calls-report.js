// calls.csv — the calls a user may see in a window, one line per call with the vessel, its length,
// the berth, the stay and who changed the call last. Agents get it only while agentCsvExport is on.

import { ForbiddenError } from "../errors.js";
import { overlaps } from "../../core/time.js";
import { authorize } from "../users/permissions.js";
import { stayOf } from "../queries/calls-query.js";
import { metres, text, time } from "./columns.js";
import { toCsv } from "./csv.js";

export function createCallsReport(ctx, { vessels, scope, lastChange, flags, settings }) {
  function rowsFor(user, { window, status }) {
    const allowed = authorize(user, "calls:export");
    if (user.role === "agent" && !flags.isOn("agentCsvExport")) throw new ForbiddenError("calls:export", user.role);
    const calls = vessels.listCalls().filter((c) => (!status || c.status === status) && (!window || overlaps(stayOf(c), window)));
    return scope.filter(allowed, user, calls).slice(0, settings.reports.maxRows);
  }

  function build(user, filter = {}) {
    const calls = rowsFor(user, filter);
    const changes = lastChange.lastChanges("call", calls.map((c) => c.id));
    const rows = calls.map((call) => ({ call, vessel: vessels.findVessel(call.vesselId), change: changes.get(call.id) }));
    const columns = [
      text("call", (r) => r.call.id),
      text("vessel", (r) => r.vessel?.name),
      text("imo", (r) => r.vessel?.imo),
      metres("loa_m", (r) => r.vessel?.lengthCm),
      text("berth", (r) => r.call.berthId),
      time("eta", (r) => r.call.eta),
      time("etd", (r) => r.call.etd),
      text("status", (r) => r.call.status),
      text("last_changed_by", (r) => r.change?.actorName),
    ];
    return toCsv(columns, rows);
  }

  return { build, rowsFor };
}
