import assert from "node:assert/strict";
import { test } from "node:test";
import { testContext } from "../test/support/context.js";
import { createPlatform } from "../src/platform/index.js";

const PASSWORD = "correct horse battery";

function within(ms, promise) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`login did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

test("logging in while asking to end the other sessions completes", async () => {
  const ctx = testContext();
  const platform = createPlatform(ctx, {
    vessels: { findVessel: () => null, listCalls: () => [] },
    billing: { listInvoices: () => [] },
    transport: { send: async () => {} },
  });
  const clerk = platform.users.addUser({ name: "Joao Lima", email: "joao.lima@alvarim-port.pt", role: "clerk" }, PASSWORD);
  await within(200, platform.login.login(clerk.email, PASSWORD));
  const res = await within(
    200,
    platform.handle({ method: "POST", url: "/sessions", body: { email: clerk.email, password: PASSWORD, endOtherSessions: true } }),
  );
  assert.equal(res.status, 201);
  assert.ok(platform.sessions.findSession(res.body.token));
});
