import assert from "node:assert/strict";
import { test } from "node:test";
import { DAY } from "../../src/core/time.js";
import { nightMinutes, nightWindow } from "../../src/workforce/pay/night.js";
import { splitOvertime } from "../../src/workforce/pay/overtime.js";
import { payLines } from "../../src/workforce/pay/lines.js";
import { minutesAt } from "../../src/workforce/pay/rates.js";
import { at, certifiedWorker, setup } from "./fixtures.js";

const sheet = (clockIn, clockOut, extra = {}) => ({ id: "TSH-000001", skill: "lashing", clockIn, clockOut, breakMinutes: 0, ...extra });

test("the night window opens at 22:00 and closes at 06:00 the next day", () => {
  assert.deepEqual(nightWindow(at(0, 15)), { start: at(0, 22), end: at(1, 6) });
  assert.equal(nightMinutes({ start: at(0, 6), end: at(0, 14) }), 0);
  assert.equal(nightMinutes({ start: at(0, 20), end: at(1, 4) }), 6 * 60);
  assert.equal(nightMinutes({ start: at(1, 2), end: at(1, 10) }), 4 * 60);
  assert.equal(nightMinutes({ start: at(0, 21), end: at(2, 7) }), 16 * 60);
});

test("overtime starts after the standard shift", () => {
  assert.deepEqual(splitOvertime(450), { regularMinutes: 450, overtimeMinutes: 0 });
  assert.deepEqual(splitOvertime(600), { regularMinutes: 480, overtimeMinutes: 120 });
  assert.throws(() => splitOvertime(1.5), RangeError);
});

test("each pay line is rounded once, half to even", () => {
  // 7 min at 16.50/h = 192.5 cents -> 192; 9 min -> 247.5 -> 248
  assert.equal(minutesAt(7, 1_650), 192.5);
  assert.deepEqual(payLines(sheet(at(0, 6), at(0, 6, 7))).map((l) => l.amountMinor), [192]);
  assert.deepEqual(payLines(sheet(at(0, 6), at(0, 6, 9))).map((l) => l.amountMinor), [248]);
});

test("a long night shift has regular, overtime and night lines", () => {
  const lines = payLines(sheet(at(0, 18), at(1, 5), { breakMinutes: 60, skill: "crane" }));
  assert.deepEqual(lines.map((l) => [l.kind, l.minutes]), [["regular", 480], ["overtime", 120], ["night", 420]]);
  assert.deepEqual(lines.map((l) => l.amountMinor), [19_600, 7_350, 4_288]);
});

test("a payslip totals the rounded lines of approved timesheets in the period", () => {
  const { wf } = setup();
  const w = certifiedWorker(wf, { registrationNo: "ALV-0701" });
  const f = certifiedWorker(wf, { registrationNo: "ALV-0702", skills: ["foreman"] });
  const a = wf.submitTimesheet({ workerId: w.id, skill: "lashing", clockIn: at(0, 6), clockOut: at(0, 6, 7) });
  const b = wf.submitTimesheet({ workerId: w.id, skill: "lashing", clockIn: at(1, 6), clockOut: at(1, 6, 9) });
  wf.submitTimesheet({ workerId: w.id, skill: "lashing", clockIn: at(2, 6), clockOut: at(2, 14) });
  wf.approveTimesheet(a.id, f.id);
  wf.approveTimesheet(b.id, f.id);
  const slip = wf.payslip(w.id, { start: at(0), end: at(0) + 7 * DAY });
  assert.deepEqual(slip.sheetIds, [a.id, b.id]);
  assert.equal(slip.totalMinor, 192 + 248);
});
