import assert from "node:assert/strict";
import { test } from "node:test";
import { EVENTS } from "../../src/workforce/events.js";
import { at, certifiedWorker, seedGang, setup } from "./fixtures.js";

test("available workers are those with the skill who pass every rule", async () => {
  const { wf, operations } = setup();
  const a = certifiedWorker(wf, { registrationNo: "ALV-1101", skills: ["crane"] });
  const b = certifiedWorker(wf, { registrationNo: "ALV-1102", skills: ["crane", "lashing"] });
  certifiedWorker(wf, { registrationNo: "ALV-1103", skills: ["lashing"] });
  operations.add({ id: "OP-1", start: at(0, 6), end: at(0, 14) });
  await wf.assignWorker({ workerId: a.id, operationId: "OP-1", skill: "crane" });
  const span = { skill: "crane", start: at(0, 8), end: at(0, 16) };
  assert.deepEqual(wf.availableWorkers(span).map((w) => w.id), [b.id]);
  const board = wf.availabilityBoard(span);
  assert.deepEqual(board.map((r) => r.reasons), [["double_booked"], []]);
  assert.throws(() => wf.availableWorkers({ ...span, skill: "pilot" }), /unknown skill/);
});

test("while started the skill index follows worker changes", async () => {
  const { wf, ctx } = setup();
  const a = certifiedWorker(wf, { registrationNo: "ALV-1104", skills: ["lashing"] });
  wf.start();
  const span = { skill: "lashing", start: at(0, 6), end: at(0, 14) };
  assert.equal(wf.availableWorkers(span).length, 1);
  const b = certifiedWorker(wf, { registrationNo: "ALV-1105", skills: ["lashing"] });
  assert.deepEqual(wf.availableWorkers(span).map((w) => w.id), [a.id, b.id]);
  await wf.deactivateWorker(a.id);
  assert.deepEqual(wf.availableWorkers(span).map((w) => w.id), [b.id]);
  wf.stop();
  assert.equal(ctx.events.count(EVENTS.workerRegistered), 0);
  assert.equal(ctx.scheduler.pending(), 0);
});

test("a gang is available when every member is", async () => {
  const { wf, ctx, operations } = setup();
  const { gang, crew } = seedGang(wf, ctx);
  const span = { start: at(0, 6), end: at(0, 14) };
  assert.deepEqual(wf.gangAvailable(gang, "lashing", span), { ok: true, blocked: [] });
  operations.add({ id: "OP-1", start: at(0, 10), end: at(0, 12) });
  await wf.assignWorker({ workerId: crew[1].id, operationId: "OP-1", skill: "lashing" });
  assert.deepEqual(wf.gangAvailable(gang, "lashing", span), { ok: false, blocked: [crew[1].id] });
});
