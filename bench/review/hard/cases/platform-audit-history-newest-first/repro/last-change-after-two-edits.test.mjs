import assert from "node:assert/strict";
import { test } from "node:test";
import { testContext } from "../test/support/context.js";
import { createPlatform } from "../src/platform/index.js";
import { HOUR } from "../src/core/time.js";

test("the last change of a call names whoever changed it last", () => {
  const ctx = testContext();
  const vessels = { findVessel: () => null, listCalls: () => [] };
  const platform = createPlatform(ctx, { vessels, billing: { listInvoices: () => [] }, transport: { send: async () => {} } });
  const ana = platform.users.addUser({ name: "Ana Reis", email: "ana.reis@alvarim-port.pt", role: "planner" }, "correct horse battery");
  const rui = platform.users.addUser({ name: "Rui Costa", email: "rui.costa@alvarim-port.pt", role: "harbour_master" }, "correct horse battery");
  platform.audit.trail.record({ action: "call.updated", entityType: "call", entityId: "CAL-000001", actorId: ana.id });
  ctx.clock.advance(HOUR);
  platform.audit.trail.record({ action: "call.berthed", entityType: "call", entityId: "CAL-000001", actorId: rui.id });
  const last = platform.audit.lastChange.lastChangeOf("call", "CAL-000001");
  assert.equal(last.actorName, "Rui Costa");
  assert.equal(last.action, "call.berthed");
  assert.equal(last.at, ctx.clock.now());
});
