import assert from "node:assert/strict";
import { test } from "node:test";
import { testContext } from "../support/context.js";
import { createUsers } from "../../src/platform/users/users.js";
import { validateUser } from "../../src/platform/users/user-record.js";
import { hashPassword, verifyPassword } from "../../src/platform/users/passwords.js";
import { PASSWORD, USERS } from "./fixtures.js";

test("user records are validated and e-mails kept lower-case", () => {
  assert.equal(validateUser({ ...USERS.clerk, email: " Joao.Lima@Alvarim-Port.PT " }).email, "joao.lima@alvarim-port.pt");
  assert.throws(() => validateUser({ ...USERS.clerk, role: "captain" }), /role: must be one of/);
  assert.throws(() => validateUser({ ...USERS.agentA, agentId: undefined }), /agentId/);
  assert.throws(() => validateUser({ ...USERS.clerk, agentId: "AGT-000001" }), /only agents/);
  assert.throws(() => validateUser({ ...USERS.clerk, phone: "912 000 001" }), /phone/);
});

test("passwords are salted and checked in constant time", () => {
  const a = hashPassword(PASSWORD);
  const b = hashPassword(PASSWORD);
  assert.notEqual(a, b);
  assert.equal(verifyPassword(PASSWORD, a), true);
  assert.equal(verifyPassword("wrong horse battery", a), false);
  assert.equal(verifyPassword(PASSWORD, "garbage"), false);
  assert.throws(() => hashPassword("short"), /10 characters/);
});

test("adding, finding and the duplicate rule", () => {
  const ctx = testContext();
  const users = createUsers(ctx);
  const seen = [];
  ctx.events.subscribe("user.added", (p) => seen.push(p));
  const rui = users.addUser(USERS.master, PASSWORD);
  assert.equal(rui.id, "USR-000001");
  assert.equal(users.findByEmail("RUI.COSTA@alvarim-port.pt").id, rui.id);
  assert.equal(users.findByEmail("nobody@alvarim-port.pt"), null);
  assert.equal(users.findUser("USR-000404"), null);
  assert.throws(() => users.getUser("USR-000404"), /not found/);
  assert.throws(() => users.addUser({ ...USERS.master, name: "Other" }, PASSWORD), /exists/);
  assert.deepEqual(seen, [{ userId: rui.id, role: "harbour_master", actorId: null }]);
  assert.equal(users.publicUser(rui).passwordHash, undefined);
});

test("role changes and deactivation publish after the write", () => {
  const ctx = testContext();
  const users = createUsers(ctx);
  const agent = users.addUser(USERS.agentA, PASSWORD);
  const seen = [];
  ctx.events.subscribe("user.roleChanged", (p) => seen.push({ ...p, stored: users.getUser(p.userId).role }));
  ctx.events.subscribe("user.deactivated", (p) => seen.push({ ...p, active: users.getUser(p.userId).active }));
  const clerk = users.setRole(agent.id, "clerk", "USR-000001");
  assert.equal(clerk.agentId, null);
  assert.equal(users.setRole(agent.id, "clerk"), users.getUser(agent.id));
  users.deactivate(agent.id, "USR-000001");
  users.deactivate(agent.id);
  assert.deepEqual(seen, [
    { userId: agent.id, from: "agent", to: "clerk", actorId: "USR-000001", stored: "clerk" },
    { userId: agent.id, actorId: "USR-000001", active: false },
  ]);
  assert.equal(users.getUser(agent.id).deactivatedAt, ctx.clock.now());
});
