import assert from "node:assert/strict";
import { test } from "node:test";
import { DAY, HOUR, IMO, T0, callInput, setup, vesselInput } from "./fixtures.js";

async function port() {
  const { ctx, vessels } = setup({ config: { paging: { defaultLimit: 2 } } });
  const agent = vessels.addAgent({ code: "ALVSH", name: "Alvarim Shipping", email: "ops@alvship.pt" });
  const a = await vessels.registerVessel(vesselInput());
  const b = await vessels.registerVessel(vesselInput({ imo: IMO.bulker, name: "Cabo Star", flag: "LR", type: "bulk" }));
  await vessels.declareCall(callInput(a.id, { agentId: agent.id }));
  await vessels.declareCall(callInput(b.id, { eta: T0 + 4 * DAY, etd: T0 + 5 * DAY }));
  await vessels.declareCall(callInput(a.id, { voyage: "043S", eta: T0 + 6 * DAY, etd: T0 + 7 * DAY, agentId: agent.id }));
  return { ctx, vessels, agent, a, b };
}

test("the listing pages by cursor in id order", async () => {
  const { vessels } = await port();
  const first = vessels.listCalls();
  assert.deepEqual(first.items.map((c) => c.id), ["CAL-000001", "CAL-000002"]);
  const second = vessels.listCalls({}, { cursor: first.nextCursor });
  assert.deepEqual(second.items.map((c) => c.id), ["CAL-000003"]);
  assert.equal(second.nextCursor, null);
});

test("filters narrow the listing", async () => {
  const { vessels, agent, b } = await port();
  assert.equal(vessels.countCalls({ agentId: agent.id }), 2);
  assert.deepEqual(vessels.listCalls({ flag: "LR" }).items.map((c) => c.vesselId), [b.id]);
  // Stays are half-open: [2d, 3d) and [4d, 5d) both miss [3d, 4d).
  assert.equal(vessels.countCalls({ from: T0 + 3 * DAY, to: T0 + 4 * DAY }), 0);
  assert.equal(vessels.countCalls({ from: T0 + 3 * DAY, to: T0 + 4 * DAY + HOUR }), 1);
  assert.throws(() => vessels.listCalls({ state: "sunk" }), /unknown state/);
  assert.throws(() => vessels.listCalls({ from: T0 }), /go together/);
});

test("the limit is capped by paging.maxLimit", async () => {
  const { vessels } = await port();
  assert.equal(vessels.listCalls({}, { limit: 1 }).items.length, 1);
  assert.throws(() => vessels.listCalls({}, { limit: 0 }), /positive integer/);
});
