import assert from "node:assert/strict";
import { test } from "node:test";
import { DAY } from "../../src/core/time.js";
import { EVENTS } from "../../src/workforce/events.js";
import { at, certifiedWorker, setup } from "./fixtures.js";

test("a leave request covers whole days, half-open", () => {
  const { wf } = setup();
  const w = certifiedWorker(wf, { registrationNo: "ALV-0901" });
  const req = wf.requestLeave({ workerId: w.id, kind: "annual", firstDay: at(3, 15), lastDay: at(5, 1) });
  assert.equal(req.start, at(3));
  assert.equal(req.end, at(6));
  assert.equal(req.end - req.start, 3 * DAY);
  assert.equal(req.status, "requested");
  assert.throws(() => wf.requestLeave({ workerId: w.id, kind: "annual", firstDay: at(5), lastDay: at(3) }), /before the first day/);
  assert.throws(() => wf.requestLeave({ workerId: w.id, kind: "holiday", firstDay: at(5), lastDay: at(5) }), /kind/);
  assert.throws(() => wf.requestLeave({ workerId: "WRK-404", kind: "annual", firstDay: at(5), lastDay: at(5) }), /not found/);
});

test("approving is announced after the write and cannot happen twice", async () => {
  const { wf, ctx } = setup();
  const w = certifiedWorker(wf, { registrationNo: "ALV-0902" });
  const req = wf.requestLeave({ workerId: w.id, kind: "sick", firstDay: at(1), lastDay: at(1) });
  const seen = [];
  ctx.events.subscribe(EVENTS.leaveApproved, (e) => seen.push(wf.findLeave(e.leaveId).status));
  await wf.approveLeave(req.id);
  assert.deepEqual(seen, ["approved"]);
  await assert.rejects(wf.approveLeave(req.id), /is approved/);
  assert.throws(() => wf.rejectLeave(req.id), /is approved/);
});

test("leave over a rostered shift is refused until the shift is released", async () => {
  const { wf, operations } = setup();
  const w = certifiedWorker(wf, { registrationNo: "ALV-0903" });
  operations.add({ id: "OP-1", start: at(2, 6), end: at(2, 14) });
  const shift = await wf.assignWorker({ workerId: w.id, operationId: "OP-1", skill: "lashing" });
  const req = wf.requestLeave({ workerId: w.id, kind: "annual", firstDay: at(2), lastDay: at(3) });
  await assert.rejects(wf.approveLeave(req.id), /rostered in SHF-000001/);
  await wf.releaseShift(shift.id);
  assert.equal((await wf.approveLeave(req.id)).status, "approved");
});

test("overlapping leave is not approved twice; a rejection keeps its note", async () => {
  const { wf } = setup();
  const w = certifiedWorker(wf, { registrationNo: "ALV-0904" });
  const a = wf.requestLeave({ workerId: w.id, kind: "annual", firstDay: at(1), lastDay: at(4) });
  const b = wf.requestLeave({ workerId: w.id, kind: "training", firstDay: at(4), lastDay: at(5) });
  const c = wf.requestLeave({ workerId: w.id, kind: "unpaid", firstDay: at(5), lastDay: at(5), note: "mudanca" });
  await wf.approveLeave(a.id);
  await assert.rejects(wf.approveLeave(b.id), /already has leave/);
  assert.equal((await wf.approveLeave(c.id)).status, "approved");
  assert.equal(wf.rejectLeave(b.id, "overlaps annual leave").note, "overlaps annual leave");
  assert.deepEqual(wf.leaveOf(w.id).map((l) => l.status), ["approved", "rejected", "approved"]);
});
