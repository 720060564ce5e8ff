// The monthly calls report for the port authority: the calls whose planned stay overlaps the
// month (cancelled ones counted apart), by state, flag and vessel type, and the hours vessels spent
// in port inside the month. Months are UTC calendar months, half-open.

import { ValidationError } from "../../core/errors.js";
import { callsOverlapping, minutesWithin } from "../calls/stay.js";
import { countRows, formatHours, renderTable } from "./report-format.js";

export function monthWindow(month) {
  const match = /^(\d{4})-(\d{2})$/.exec(String(month));
  if (!match || Number(match[2]) < 1 || Number(match[2]) > 12) throw new ValidationError("month", `expected YYYY-MM, got ${month}`);
  const year = Number(match[1]);
  const index = Number(match[2]) - 1;
  return { start: Date.UTC(year, index, 1), end: Date.UTC(year, index + 1, 1) };
}

const bump = (counts, key) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

/** deps: calls (allCalls), register (getVessel), listing (countCalls). */
export function createCallsReport(ctx, { calls, register, listing }) {
  function monthlyReport(month) {
    const window = monthWindow(month);
    const overlapping = callsOverlapping(calls.allCalls(), window);
    const rows = overlapping.filter((call) => call.state !== "cancelled");
    const report = { month, calls: rows.length, cancelled: overlapping.length - rows.length, byState: {}, byFlag: {}, byType: {}, minutesInPort: 0 };
    const now = ctx.clock.now();
    for (const call of rows) {
      const vessel = register.getVessel(call.vesselId);
      bump(report.byState, call.state);
      bump(report.byFlag, vessel.flag);
      bump(report.byType, vessel.type);
      if (call.arrivedAt) report.minutesInPort += minutesWithin(call, window, now);
    }
    return report;
  }

  /** Calls per state in the month, for the dashboard tiles (no vessel lookups). */
  function stateCounts(month) {
    const window = monthWindow(month);
    const counts = {};
    for (const state of ["expected", "arrived", "berthed", "departed", "cancelled"]) {
      counts[state] = listing.countCalls({ state, from: window.start, to: window.end });
    }
    return counts;
  }

  function renderMonthly(report) {
    const head = `Calls at Alvarim, ${report.month}: ${report.calls} (${report.cancelled} cancelled), ${formatHours(report.minutesInPort)} h in port`;
    const byFlag = renderTable(["Flag", "Calls"], countRows(report.byFlag));
    const byType = renderTable(["Type", "Calls"], countRows(report.byType));
    return [head, "", byFlag, "", byType].join("\n");
  }

  return { monthlyReport, stateCounts, renderMonthly };
}
