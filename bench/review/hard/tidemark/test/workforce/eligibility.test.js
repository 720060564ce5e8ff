import assert from "node:assert/strict";
import { test } from "node:test";
import { DAY } from "../../src/core/time.js";
import { T0, at, certifiedWorker, setup } from "./fixtures.js";

test("a certified, free, rested worker is eligible", () => {
  const { wf } = setup();
  const w = certifiedWorker(wf, { registrationNo: "ALV-0401", skills: ["crane"] });
  assert.deepEqual(wf.checkEligibility(w.id, "crane", { start: at(0, 6), end: at(0, 14) }), { ok: true, reasons: [] });
});

test("every reason a worker cannot work is listed", async () => {
  const { wf, operations } = setup();
  const w = certifiedWorker(wf, { registrationNo: "ALV-0402", skills: ["lashing"] });
  assert.deepEqual(wf.checkEligibility(w.id, "crane", { start: at(0, 6), end: at(0, 14) }).reasons, ["no_skill"]);
  assert.deepEqual(wf.checkEligibility(w.id, "lashing", { start: at(0, 6), end: at(0, 19) }).reasons, ["shift_too_long"]);
  operations.add({ id: "OP-1", start: at(0, 6), end: at(0, 14) });
  await wf.assignWorker({ workerId: w.id, operationId: "OP-1", skill: "lashing" });
  assert.deepEqual(wf.checkEligibility(w.id, "lashing", { start: at(0, 13), end: at(0, 20) }).reasons, ["double_booked"]);
  assert.deepEqual(wf.checkEligibility(w.id, "lashing", { start: at(0, 14), end: at(0, 20) }).reasons, ["short_rest"]);
  await wf.deactivateWorker(w.id);
  assert.deepEqual(wf.checkEligibility(w.id, "lashing", { start: at(3, 6), end: at(3, 14) }).reasons, ["inactive"]);
});

test("an expired certificate keeps a worker off that skill", () => {
  const { wf } = setup();
  const w = wf.registerWorker({ registrationNo: "ALV-0403", name: "Ana Lopes", skills: ["reach-stacker", "checker"] });
  wf.addCertificate({ workerId: w.id, skill: "reach-stacker", number: "RS-0403", validFrom: T0 - DAY, validUntil: at(0, 10) });
  assert.deepEqual(wf.checkEligibility(w.id, "reach-stacker", { start: at(0, 6), end: at(0, 14) }).reasons, ["no_certificate"]);
  assert.deepEqual(wf.checkEligibility(w.id, "reach-stacker", { start: at(0, 2), end: at(0, 10) }).reasons, []);
  assert.deepEqual(wf.checkEligibility(w.id, "checker", { start: at(0, 6), end: at(0, 14) }).reasons, []);
});

test("approved leave keeps a worker off the roster for whole days", async () => {
  const { wf } = setup();
  const w = certifiedWorker(wf, { registrationNo: "ALV-0404" });
  const req = wf.requestLeave({ workerId: w.id, kind: "annual", firstDay: at(2, 9), lastDay: at(3, 9) });
  assert.deepEqual(wf.checkEligibility(w.id, "lashing", { start: at(2, 6), end: at(2, 14) }).reasons, []);
  await wf.approveLeave(req.id);
  assert.deepEqual(wf.checkEligibility(w.id, "lashing", { start: at(2, 6), end: at(2, 14) }).reasons, ["on_leave"]);
  assert.deepEqual(wf.checkEligibility(w.id, "lashing", { start: at(1, 20), end: at(2, 2) }).reasons, ["on_leave"]);
  assert.deepEqual(wf.checkEligibility(w.id, "lashing", { start: at(4, 0), end: at(4, 8) }).reasons, []);
});
