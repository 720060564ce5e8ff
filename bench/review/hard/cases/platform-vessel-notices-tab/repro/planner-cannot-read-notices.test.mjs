import assert from "node:assert/strict";
import { test } from "node:test";
import { testContext } from "../test/support/context.js";
import { createPlatform } from "../src/platform/index.js";

const PASSWORD = "correct horse battery";

test("roles without notifications:read cannot read a vessel's notices", async () => {
  const ctx = testContext();
  const vessel = { id: "VSL-000001", name: "Maria Alvarim", imo: "9321483", agentId: "AGT-000001", lengthCm: 19_990 };
  const platform = createPlatform(ctx, {
    vessels: { findVessel: (id) => (id === vessel.id ? vessel : null), listCalls: () => [] },
    billing: { listInvoices: () => [] },
    transport: { send: async () => {} },
  });
  platform.outbox.enqueue({ channel: "email", to: "ops@atlantica-agency.pt", subject: "Invoice INV-000001", text: "Invoice INV-000001 is issued.", vesselId: vessel.id });
  const planner = platform.users.addUser({ name: "Ana Reis", email: "ana.reis@alvarim-port.pt", role: "planner" }, PASSWORD);
  const session = await platform.login.login(planner.email, PASSWORD);
  const ask = (url) => platform.handle({ method: "GET", url, token: session.token });
  assert.equal((await ask("/notifications")).status, 403);
  const res = await ask("/vessels/VSL-000001/notifications");
  assert.notEqual(res.status, 200);
  assert.equal(res.body.items, undefined);
});
