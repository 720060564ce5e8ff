import assert from "node:assert/strict";
import { test } from "node:test";
import { EVENTS } from "../../src/workforce/events.js";
import { setup } from "./fixtures.js";

test("a registered worker comes back frozen, with sorted skills", () => {
  const { wf, ctx } = setup();
  const seen = [];
  ctx.events.subscribe(EVENTS.workerRegistered, (e) => seen.push(e.workerId));
  const w = wf.registerWorker({ registrationNo: "ALV-0412", name: " Nuno Reis ", skills: ["lashing", "Crane"], maxLiftKg: 42_500 });
  assert.equal(w.id, "WRK-000001");
  assert.deepEqual(w.skills, ["crane", "lashing"]);
  assert.equal(w.name, "Nuno Reis");
  assert.ok(Object.isFrozen(w));
  assert.deepEqual(seen, [w.id]);
});

test("registration numbers are unique and well formed", () => {
  const { wf } = setup();
  wf.registerWorker({ registrationNo: "ALV-0001", name: "Ana Lopes", skills: ["checker"] });
  assert.throws(() => wf.registerWorker({ registrationNo: "ALV-0001", name: "Rita Lopes", skills: ["checker"] }), /already in use/);
  assert.throws(() => wf.registerWorker({ registrationNo: "ALV-12", name: "Rita Lopes", skills: ["checker"] }), /registrationNo/);
});

test("a crane driver needs a lift rating; others do not get one", () => {
  const { wf } = setup();
  assert.throws(() => wf.registerWorker({ registrationNo: "ALV-0002", name: "Ze Ramos", skills: ["crane"] }), /maxLiftKg/);
  const w = wf.registerWorker({ registrationNo: "ALV-0003", name: "Ze Ramos", skills: ["lashing"], maxLiftKg: 1 });
  assert.equal(w.maxLiftKg, null);
});

test("find returns null and get throws for a missing worker", () => {
  const { wf } = setup();
  assert.equal(wf.findWorker("WRK-404"), null);
  assert.throws(() => wf.getWorker("WRK-404"), /not found/);
  assert.equal(wf.findByRegistration("ALV-9999"), null);
});

test("skills change under the worker's lock and deactivation is kept", async () => {
  const { wf } = setup();
  const w = wf.registerWorker({ registrationNo: "ALV-0004", name: "Ines Prata", skills: ["checker"] });
  const updated = await wf.updateSkills(w.id, ["checker", "lashing"], 1);
  assert.deepEqual(updated.skills, ["checker", "lashing"]);
  await assert.rejects(wf.updateSkills(w.id, ["checker"], 1), /changed/);
  const gone = await wf.deactivateWorker(w.id);
  assert.equal(gone.active, false);
  assert.equal((await wf.deactivateWorker(w.id)).version, gone.version);
});
