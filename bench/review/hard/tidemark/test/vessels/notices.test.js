import assert from "node:assert/strict";
import { test } from "node:test";
import { DAY, T0, agentInput, callInput, setup, vesselInput } from "./fixtures.js";

async function arrivedCall({ withAgent }) {
  const { ctx, vessels } = setup();
  const v = await vessels.registerVessel(vesselInput());
  let agentId = null;
  if (withAgent) {
    agentId = vessels.addAgent(agentInput()).id;
    vessels.addContact(agentId, { name: "Ana Sousa", role: "operations", email: "ana@alvship.pt" });
  }
  const call = await vessels.declareCall(callInput(v.id, { agentId }));
  ctx.clock.advance(2 * DAY);
  await vessels.arrive(call.id);
  return { ctx, vessels, call };
}

test("the agent's operations contact gets the arrival notice", async () => {
  const { vessels, call } = await arrivedCall({ withAgent: true });
  const [notice] = vessels.noticesFor(call.id);
  assert.equal(notice.to.email, "ana@alvship.pt");
  assert.equal(notice.subject, "[PTALV] Arrival ALVOR TRADER voy. 042N (CAL-000001)");
  assert.equal(notice.sentAt, T0 + 2 * DAY);
  assert.match(notice.text, /Attn: Ana Sousa <ana@alvship.pt>/);
  assert.match(notice.text, /LOA: 294,1 m/);
});

test("a call without an agent goes to the harbour master's desk", async () => {
  const { vessels, call } = await arrivedCall({ withAgent: false });
  const [notice] = vessels.noticesFor(call.id);
  assert.equal(notice.to.email, "desk@harbourmaster.alvarim.pt");
  assert.match(notice.text, /Agent: none declared/);
});

test("after stop() arrivals send nothing", async () => {
  const { ctx, vessels } = setup();
  const v = await vessels.registerVessel(vesselInput());
  const call = await vessels.declareCall(callInput(v.id));
  vessels.stop();
  ctx.clock.advance(2 * DAY);
  await vessels.arrive(call.id);
  assert.deepEqual(vessels.noticesFor(call.id), []);
});
