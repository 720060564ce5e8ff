import assert from "node:assert/strict";
import { test } from "node:test";
import { authorize, can, actionsOf } from "../../src/platform/users/permissions.js";
import { ACTIONS, PERMISSIONS, ROLES, rolesFor } from "../../src/platform/users/roles.js";
import { createScope } from "../../src/platform/users/scope.js";
import { fakeVessels, CALLS } from "./fixtures.js";

const master = { id: "USR-000001", role: "harbour_master", active: true, agentId: null };
const clerk = { id: "USR-000003", role: "clerk", active: true, agentId: null };
const agentA = { id: "USR-000004", role: "agent", active: true, agentId: "AGT-000001" };

test("every row of the table names known roles and scopes", () => {
  for (const action of ACTIONS) {
    for (const [role, scope] of Object.entries(PERMISSIONS[action])) {
      assert.ok(ROLES.includes(role), `${action}: ${role}`);
      assert.ok(["all", "own"].includes(scope), `${action}: ${scope}`);
    }
  }
  assert.deepEqual(rolesFor("users:manage"), ["harbour_master"]);
});

test("authorize returns the scope or throws", () => {
  assert.equal(authorize(master, "audit:read"), "all");
  assert.equal(authorize(agentA, "calls:read"), "own");
  assert.throws(() => authorize(clerk, "audit:read"), /role clerk may not audit:read/);
  assert.throws(() => authorize(null, "calls:read"), /valid session/);
  assert.throws(() => authorize({ ...master, active: false }, "calls:read"), /may not/);
  assert.throws(() => authorize(master, "calls:delete"), /no such action/);
});

test("can and actionsOf answer without throwing", () => {
  assert.equal(can(agentA, "invoices:export"), false);
  assert.equal(can(clerk, "invoices:export"), true);
  assert.equal(can(undefined, "calls:read"), false);
  assert.deepEqual(actionsOf(agentA), ["vessels:read", "calls:read", "calls:export", "invoices:read", "notifications:read"]);
});

test("an agent's scope keeps its own vessels' records", () => {
  const scope = createScope(fakeVessels());
  const mine = scope.filter("own", agentA, CALLS);
  assert.deepEqual(mine.map((c) => c.id), ["CAL-000001", "CAL-000003", "CAL-000004"]);
  assert.equal(scope.filter("all", agentA, CALLS), CALLS);
  assert.throws(() => scope.assertVisible("own", agentA, CALLS[1], "call"), /call CAL-000002 not found/);
  assert.equal(scope.assertVisible("own", agentA, CALLS[0], "call"), CALLS[0]);
  assert.equal(scope.ownsVessel(clerk, "VSL-000001"), false);
  assert.equal(scope.ownsVessel(agentA, "VSL-000404"), false);
});
