import assert from "node:assert/strict";
import { test } from "node:test";
import { EVENTS } from "../../src/workforce/events.js";
import { at, certifiedWorker, seedGang, setup } from "./fixtures.js";

test("a worker is assigned to an operation for its span", async () => {
  const { wf, ctx, operations } = setup();
  const w = certifiedWorker(wf, { registrationNo: "ALV-0501", skills: ["crane"] });
  operations.add({ id: "OP-1", start: at(0, 6), end: at(0, 14) });
  const events = [];
  ctx.events.subscribe(EVENTS.shiftAssigned, (e) => events.push(wf.getShift(e.shiftId).status));
  const shift = await wf.assignWorker({ workerId: w.id, operationId: "OP-1", skill: "crane" });
  assert.equal(shift.start, at(0, 6));
  assert.equal(shift.end, at(0, 14));
  assert.deepEqual(events, ["assigned"]);
  await assert.rejects(wf.assignWorker({ workerId: w.id, operationId: "OP-1", skill: "crane" }), /double_booked/);
  await assert.rejects(wf.assignWorker({ workerId: w.id, operationId: "OP-404", skill: "crane" }), /operation OP-404 not found/);
});

test("two assignments racing for one worker: one wins", async () => {
  const { wf, operations } = setup();
  const w = certifiedWorker(wf, { registrationNo: "ALV-0502" });
  operations.add({ id: "OP-1", start: at(0, 6), end: at(0, 14) });
  operations.add({ id: "OP-2", start: at(0, 8), end: at(0, 16) });
  const results = await Promise.allSettled([
    wf.assignWorker({ workerId: w.id, operationId: "OP-1", skill: "lashing" }),
    wf.assignWorker({ workerId: w.id, operationId: "OP-2", skill: "lashing" }),
  ]);
  assert.deepEqual(results.map((r) => r.status), ["fulfilled", "rejected"]);
});

test("a gang is rostered whole: the foreman as foreman, the crew in the skill", async () => {
  const { wf, ctx, operations } = setup();
  const { gang, foreman } = seedGang(wf, ctx);
  operations.add({ id: "OP-1", start: at(0, 6), end: at(0, 14) });
  const seen = [];
  ctx.events.subscribe(EVENTS.gangAssigned, (e) => seen.push(e.shiftIds.length));
  const shifts = await wf.assignGang({ gangId: gang.id, operationId: "OP-1", skill: "lashing" });
  assert.equal(shifts.length, 5);
  assert.equal(shifts.find((s) => s.workerId === foreman.id).skill, "foreman");
  assert.ok(shifts.every((s) => s.gangId === gang.id));
  assert.deepEqual(seen, [5]);
});

test("a gang with one member unavailable is not rostered at all", async () => {
  const { wf, ctx, operations } = setup();
  const { gang, crew } = seedGang(wf, ctx);
  operations.add({ id: "OP-1", start: at(0, 6), end: at(0, 14) });
  operations.add({ id: "OP-2", start: at(0, 8), end: at(0, 12) });
  await wf.assignWorker({ workerId: crew[2].id, operationId: "OP-2", skill: "lashing" });
  await assert.rejects(wf.assignGang({ gangId: gang.id, operationId: "OP-1", skill: "lashing" }), new RegExp(`${crew[2].id} \\(double_booked`));
  assert.equal(wf.rosterOfDay(at(0)).length, 1);
});

test("a released shift frees the worker and stays on file", async () => {
  const { wf, ctx, operations } = setup();
  const w = certifiedWorker(wf, { registrationNo: "ALV-0503" });
  operations.add({ id: "OP-1", start: at(0, 6), end: at(0, 14) });
  const shift = await wf.assignWorker({ workerId: w.id, operationId: "OP-1", skill: "lashing" });
  const released = [];
  ctx.events.subscribe(EVENTS.shiftReleased, (e) => released.push(e.shiftId));
  await wf.releaseShift(shift.id);
  await wf.releaseShift(shift.id);
  assert.deepEqual(released, [shift.id]);
  assert.equal(wf.getShift(shift.id).status, "released");
  assert.equal((await wf.assignWorker({ workerId: w.id, operationId: "OP-1", skill: "lashing" })).status, "assigned");
});

test("releasing an operation releases its gang's shifts together", async () => {
  const { wf, ctx, operations } = setup();
  const { gang } = seedGang(wf, ctx);
  operations.add({ id: "OP-1", start: at(0, 6), end: at(0, 14) });
  await wf.assignGang({ gangId: gang.id, operationId: "OP-1", skill: "lashing" });
  const released = await wf.releaseOperation("OP-1");
  assert.equal(released.length, 5);
  assert.equal(wf.rosterOfDay(at(0)).length, 0);
  assert.ok(gang.memberIds.every((id) => !ctx.locks.isLocked(`worker:${id}`)));
});
