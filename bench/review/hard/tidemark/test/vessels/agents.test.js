import assert from "node:assert/strict";
import { test } from "node:test";
import { formatPhone } from "../../src/vessels/agents/agent-format.js";
import { agentInput, callInput, setup, vesselInput } from "./fixtures.js";

test("agent codes are unique and inputs are cleaned", () => {
  const { vessels } = setup();
  const agent = vessels.addAgent(agentInput({ code: "alvsh", email: " OPS@Alvship.PT " }));
  assert.equal(agent.code, "ALVSH");
  assert.equal(agent.email, "ops@alvship.pt");
  assert.equal(agent.phone, "+351213000000");
  assert.throws(() => vessels.addAgent(agentInput()), /taken/);
  assert.throws(() => vessels.addAgent(agentInput({ code: "A1", name: "X Lda" })), /code/);
});

test("an inactive agent cannot declare calls", async () => {
  const { vessels } = setup();
  const agent = vessels.addAgent(agentInput());
  const v = await vessels.registerVessel(vesselInput());
  vessels.updateAgent(agent.id, { active: false });
  await assert.rejects(vessels.declareCall(callInput(v.id, { agentId: agent.id })), /inactive/);
  vessels.updateAgent(agent.id, { active: true });
  const call = await vessels.declareCall(callInput(v.id, { agentId: agent.id }));
  assert.equal(call.agentId, agent.id);
});

test("notices go to the primary contact of the role, else the agency", () => {
  const { vessels } = setup();
  const agent = vessels.addAgent(agentInput());
  const first = vessels.addContact(agent.id, { name: "Ana Sousa", role: "operations", email: "ana@alvship.pt" });
  const second = vessels.addContact(agent.id, { name: "Rui Mota", role: "operations", email: "rui@alvship.pt" });
  assert.equal(first.primary, true);
  assert.equal(second.primary, false);
  assert.throws(() => vessels.addContact(agent.id, { name: "X", role: "catering", email: "x@alvship.pt" }), /role/);
  assert.throws(() => vessels.addContact("AGT-000404", { name: "X", role: "operations", email: "x@alvship.pt" }), /not found/);
});

test("phone numbers are grouped for reading", () => {
  assert.equal(formatPhone("+351213000000"), "+351 213 000 000");
  assert.equal(formatPhone(null), "-");
});
