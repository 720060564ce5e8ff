import assert from "node:assert/strict";
import { test } from "node:test";
import { DAY } from "../../src/core/time.js";
import { fatigueTable, hm, hoursTable } from "../../src/workforce/reports/format.js";
import { breachesOnly, fatigueReport } from "../../src/workforce/reports/fatigue.js";
import { createStore } from "../../src/core/store.js";
import { loadConfig } from "../../src/core/config.js";
import { at, certifiedWorker, setup } from "./fixtures.js";

const week = { start: at(0), end: at(0) + 7 * DAY };

async function twoWorkers() {
  const s = setup();
  const a = certifiedWorker(s.wf, { registrationNo: "ALV-1201" });
  const b = certifiedWorker(s.wf, { registrationNo: "ALV-1202" });
  const f = certifiedWorker(s.wf, { registrationNo: "ALV-1203", skills: ["foreman"] });
  s.operations.add({ id: "OP-1", start: at(0, 6), end: at(0, 14) });
  s.operations.add({ id: "OP-2", start: at(1, 2), end: at(1, 12) });
  s.operations.add({ id: "OP-3", start: at(6, 20), end: at(7, 4) });
  await s.wf.assignWorker({ workerId: a.id, operationId: "OP-1", skill: "lashing" });
  await s.wf.assignWorker({ workerId: a.id, operationId: "OP-2", skill: "lashing" });
  await s.wf.assignWorker({ workerId: b.id, operationId: "OP-3", skill: "lashing" });
  return { ...s, a, b, f };
}

test("hours are rostered minutes clipped to the period and paid minutes from approved sheets", async () => {
  const { wf, a, b, f } = await twoWorkers();
  const sheet = wf.submitTimesheet({ workerId: b.id, skill: "lashing", clockIn: at(6, 20), clockOut: at(7, 4, 30), breakMinutes: 30 });
  wf.approveTimesheet(sheet.id, f.id);
  const rows = wf.hoursReport(week);
  assert.deepEqual(rows.map((r) => r.workerId), [a.id, b.id]);
  assert.equal(rows[0].rosteredMinutes, 18 * 60);
  assert.deepEqual(rows[1], { workerId: b.id, rosteredMinutes: 4 * 60, paidMinutes: 480, overtimeMinutes: 0, nightMinutes: 390 });
  assert.match(hoursTable(rows), /ALV|WRK-000002\s+4:00\s+8:00\s+0:00\s+6:30/);
});

test("the fatigue report puts breaches first", async () => {
  const { wf, a, b } = await twoWorkers();
  const rows = wf.fatigueReport(week);
  assert.deepEqual(rows.map((r) => r.workerId), [a.id, b.id]);
  assert.equal(rows[0].shortestRestMinutes, 12 * 60);
  assert.deepEqual(rows[0].breaches, []);
  assert.deepEqual(breachesOnly(rows), []);
  assert.equal(rows[1].shortestRestMinutes, null);
  assert.match(fatigueTable(rows), /12:00/);
});

test("a rest shorter than the setting is a breach", () => {
  const shifts = createStore("shift");
  shifts.insert({ id: "SHF-000001", workerId: "WRK-000009", start: at(0, 6), end: at(0, 14), status: "assigned" });
  shifts.insert({ id: "SHF-000002", workerId: "WRK-000009", start: at(1, 2), end: at(1, 10), status: "assigned" });
  shifts.insert({ id: "SHF-000003", workerId: "WRK-000008", start: at(1, 2), end: at(1, 10), status: "assigned" });
  const rows = fatigueReport(loadConfig({ workforce: { minRestMinutes: 780 } }), { shifts }, week);
  assert.deepEqual(rows.map((r) => [r.workerId, r.breaches]), [["WRK-000009", ["short_rest"]], ["WRK-000008", []]]);
});

test("minutes print as h:mm", () => {
  assert.equal(hm(0), "0:00");
  assert.equal(hm(605), "10:05");
  assert.equal(hm(-30), "-0:30");
  assert.equal(hm(null), "-");
});
