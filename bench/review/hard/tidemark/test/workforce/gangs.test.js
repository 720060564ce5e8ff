import assert from "node:assert/strict";
import { test } from "node:test";
import { crewOf } from "../../src/workforce/gangs/composition.js";
import { certifiedWorker, seedGang, setup } from "./fixtures.js";

test("a gang is gangSize workers, foreman included", () => {
  const { wf, ctx } = setup();
  const { gang, foreman, crew } = seedGang(wf, ctx);
  assert.equal(gang.memberIds.length, ctx.config.workforce.gangSize);
  assert.equal(gang.foremanId, foreman.id);
  assert.deepEqual(crewOf(gang), crew.map((w) => w.id));
  assert.equal(wf.gangOf(crew[0].id).id, gang.id);
});

test("the gang size follows the setting", () => {
  const { wf, ctx } = setup({ workforce: { gangSize: 3 } });
  const { gang } = seedGang(wf, ctx);
  assert.equal(gang.memberIds.length, 3);
});

test("a gang needs a foreman who holds the skill and free members", () => {
  const { wf, ctx } = setup({ workforce: { gangSize: 2 } });
  const a = certifiedWorker(wf, { registrationNo: "ALV-0201", skills: ["lashing"] });
  const b = certifiedWorker(wf, { registrationNo: "ALV-0202", skills: ["lashing"] });
  const f = certifiedWorker(wf, { registrationNo: "ALV-0203", skills: ["foreman"] });
  assert.throws(() => wf.formGang({ name: "Gang X", foremanId: a.id, memberIds: [a.id, b.id] }), /not a foreman/);
  assert.throws(() => wf.formGang({ name: "Gang X", foremanId: f.id, memberIds: [a.id, b.id] }), /must be a member/);
  assert.throws(() => wf.formGang({ name: "Gang X", foremanId: f.id, memberIds: [f.id, a.id, b.id] }), /a gang has 2 workers/);
  assert.throws(() => wf.formGang({ name: "Gang X", foremanId: f.id, memberIds: [f.id, f.id] }), /listed twice/);
  const gang = wf.formGang({ name: "Gang X", foremanId: f.id, memberIds: [f.id, a.id] });
  assert.throws(() => wf.formGang({ name: "Gang Y", foremanId: f.id, memberIds: [f.id, b.id] }), /already in gang/);
  wf.disbandGang(gang.id);
  assert.equal(wf.gangOf(a.id), null);
  assert.equal(wf.formGang({ name: "Gang Y", foremanId: f.id, memberIds: [f.id, b.id] }).memberIds.length, 2);
  assert.equal(ctx.config.workforce.gangSize, 2);
});
