import assert from "node:assert/strict";
import { test } from "node:test";
import { EVENTS } from "../../src/workforce/events.js";
import { parseClockExport } from "../../src/workforce/timesheets/import.js";
import { at, certifiedWorker, setup } from "./fixtures.js";

async function withShift() {
  const s = setup();
  const w = certifiedWorker(s.wf, { registrationNo: "ALV-0801", name: "Tiago Cruz" });
  const f = certifiedWorker(s.wf, { registrationNo: "ALV-0802", skills: ["foreman"] });
  s.operations.add({ id: "OP-1", start: at(0, 6), end: at(0, 14) });
  const shift = await s.wf.assignWorker({ workerId: w.id, operationId: "OP-1", skill: "lashing" });
  return { ...s, w, f, shift };
}

test("a timesheet on its shift takes the shift's skill and has no flags", async () => {
  const { wf, ctx, w, shift } = await withShift();
  const seen = [];
  ctx.events.subscribe(EVENTS.timesheetSubmitted, (e) => seen.push(e.flags));
  const sheet = wf.submitTimesheet({ workerId: w.id, shiftId: shift.id, clockIn: at(0, 5, 58), clockOut: at(0, 14, 5), breakMinutes: 30 });
  assert.equal(sheet.skill, "lashing");
  assert.deepEqual(sheet.flags, []);
  assert.deepEqual(seen, [[]]);
});

test("late, long and off-roster clockings are flagged, not refused", async () => {
  const { wf, w, shift } = await withShift();
  assert.deepEqual(wf.submitTimesheet({ workerId: w.id, shiftId: shift.id, clockIn: at(0, 6, 16), clockOut: at(0, 14) }).flags, ["late"]);
  assert.deepEqual(wf.submitTimesheet({ workerId: w.id, shiftId: shift.id, clockIn: at(0, 6), clockOut: at(0, 18, 30) }).flags, ["long_shift"]);
  assert.deepEqual(wf.submitTimesheet({ workerId: w.id, skill: "lashing", clockIn: at(1, 6), clockOut: at(1, 10) }).flags, ["off_roster"]);
  assert.throws(() => wf.submitTimesheet({ workerId: w.id, clockIn: at(1, 6), clockOut: at(1, 10) }), /skill/);
  assert.throws(() => wf.submitTimesheet({ workerId: w.id, skill: "lashing", clockIn: at(1, 6), clockOut: at(1, 7), breakMinutes: 60 }), /breakMinutes/);
});

test("a foreman approves, once, and never their own sheet", async () => {
  const { wf, w, f, shift } = await withShift();
  const sheet = wf.submitTimesheet({ workerId: w.id, shiftId: shift.id, clockIn: at(0, 6), clockOut: at(0, 14) });
  assert.throws(() => wf.approveTimesheet(sheet.id, w.id), /cannot approve/);
  assert.equal(wf.approveTimesheet(sheet.id, f.id).approvedBy, f.id);
  assert.throws(() => wf.approveTimesheet(sheet.id, f.id), /is approved/);
  const own = wf.submitTimesheet({ workerId: f.id, skill: "foreman", clockIn: at(0, 6), clockOut: at(0, 14) });
  assert.throws(() => wf.approveTimesheet(own.id, f.id), /own timesheet/);
});

test("the gate clock export is read and submitted", async () => {
  const { wf, shift } = await withShift();
  const text = ["ALV-0801;2026-03-02T05:58:00Z;2026-03-02T14:07:00Z;30;" + shift.id, "ALV-0999;2026-03-02T06:00:00Z;2026-03-02T14:00:00Z;0;", "ALV-0802;2026-03-02T06:00:00Z;yesterday;0;"].join("\n");
  assert.equal(parseClockExport(text).rows.length, 2);
  const { submitted, errors } = wf.importClockExport(text, { defaultSkill: "foreman" });
  assert.equal(submitted.length, 1);
  assert.equal(submitted[0].clockIn, at(0, 5, 58));
  assert.equal(submitted[0].breakMinutes, 30);
  assert.deepEqual(errors.map((e) => e.line ?? e.registrationNo), [3, "ALV-0999"]);
});
