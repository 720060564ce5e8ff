import assert from "node:assert/strict";
import { test } from "node:test";
import { T0, testContext } from "../test/support/context.js";
import { createPlatform } from "../src/platform/index.js";
import { HOUR } from "../src/core/time.js";

const PASSWORD = "correct horse battery";

test("calls.csv holds every call in the window, not one page of them", async () => {
  const ctx = testContext();
  const vessel = { id: "VSL-000001", name: "Maria Alvarim", imo: "9321483", agentId: "AGT-000001", lengthCm: 19_990 };
  const calls = Array.from({ length: 250 }, (_, i) => ({
    id: `CAL-${String(i + 1).padStart(6, "0")}`,
    vesselId: vessel.id,
    berthId: "B1-1",
    eta: T0 + i * HOUR,
    etd: T0 + i * HOUR + 30 * 60_000,
    status: "departed",
  }));
  const platform = createPlatform(ctx, {
    vessels: { findVessel: (id) => (id === vessel.id ? vessel : null), listCalls: () => [...calls] },
    billing: { listInvoices: () => [] },
    transport: { send: async () => {} },
  });
  const clerk = platform.users.addUser({ name: "Joao Lima", email: "joao.lima@alvarim-port.pt", role: "clerk" }, PASSWORD);
  const session = await platform.login.login(clerk.email, PASSWORD);
  const res = await platform.handle({ method: "GET", url: "/reports/calls.csv", token: session.token });
  assert.equal(res.status, 200);
  const lines = res.body.trim().split("\r\n");
  assert.equal(lines.length, 1 + 250);
  assert.ok(lines.at(-1).startsWith("CAL-000250,"));
});
