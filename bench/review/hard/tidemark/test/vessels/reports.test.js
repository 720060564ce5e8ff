import assert from "node:assert/strict";
import { test } from "node:test";
import { monthWindow } from "../../src/vessels/reports/calls-report.js";
import { countRows, formatHours, renderTable } from "../../src/vessels/reports/report-format.js";
import { DAY, HOUR, IMO, T0, callInput, setup, vesselInput } from "./fixtures.js";

async function march() {
  const { ctx, vessels } = setup();
  const a = await vessels.registerVessel(vesselInput());
  const b = await vessels.registerVessel(vesselInput({ imo: IMO.bulker, name: "Cabo Star", flag: "LR", type: "bulk" }));
  const c1 = await vessels.declareCall(callInput(a.id, { eta: T0 + DAY, etd: T0 + 2 * DAY }));
  const c2 = await vessels.declareCall(callInput(b.id, { eta: T0 + DAY, etd: T0 + 3 * DAY }));
  await vessels.declareCall(callInput(a.id, { voyage: "043S", eta: T0 + 40 * DAY, etd: T0 + 41 * DAY }));
  const c4 = await vessels.declareCall(callInput(b.id, { voyage: "043S", eta: T0 + 5 * DAY, etd: T0 + 6 * DAY }));
  await vessels.cancelCall(c4.id, "omitted Alvarim");
  ctx.clock.advance(DAY);
  await vessels.arrive(c1.id);
  await vessels.arrive(c2.id);
  ctx.clock.advance(10 * HOUR);
  await vessels.depart(c1.id);
  ctx.clock.advance(2 * HOUR);
  return { ctx, vessels, a, b };
}

test("the month is a half-open UTC calendar month", () => {
  assert.deepEqual(monthWindow("2026-03"), { start: Date.UTC(2026, 2, 1), end: Date.UTC(2026, 3, 1) });
  assert.deepEqual(monthWindow("2026-12").end, Date.UTC(2027, 0, 1));
  assert.throws(() => monthWindow("2026-13"), /YYYY-MM/);
});

test("the monthly report counts calls and time in port", async () => {
  const { vessels } = await march();
  const report = vessels.monthlyCallsReport("2026-03");
  assert.equal(report.calls, 2);
  assert.equal(report.cancelled, 1);
  assert.deepEqual(report.byFlag, { PT: 1, LR: 1 });
  assert.deepEqual(report.byState, { departed: 1, arrived: 1 });
  assert.equal(report.minutesInPort, 10 * 60 + 12 * 60);
  assert.match(vessels.renderMonthlyReport(report), /^Calls at Alvarim, 2026-03: 2 \(1 cancelled\), 22,0 h in port/);
  assert.equal(vessels.monthlyCallsReport("2026-04").calls, 1);
});

test("state counts for the dashboard", async () => {
  const { vessels } = await march();
  assert.deepEqual(vessels.callStateCounts("2026-03"), { expected: 0, arrived: 1, berthed: 0, departed: 1, cancelled: 1 });
});

test("time in port per vessel, longest first", async () => {
  const { vessels, a, b } = await march();
  const rows = vessels.timeInPort(monthWindow("2026-03"));
  assert.deepEqual(rows.map((r) => [r.vesselId, r.minutes, r.chargeableDays]), [[b.id, 720, 1], [a.id, 600, 1]]);
});

test("tables pad and align", () => {
  assert.equal(renderTable(["Flag", "Calls"], [["PT", 12], ["LR", 3]]), "Flag  Calls\n----  -----\nPT       12\nLR        3");
  assert.equal(formatHours(90), "1,5");
  assert.deepEqual(countRows({ PT: 1, LR: 3, MT: 1 }), [["LR", 3], ["MT", 1], ["PT", 1]]);
});
