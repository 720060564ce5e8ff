// The user register. findUser/findByEmail return null for a missing user, getUser throws. Users
// are deactivated, never removed. Events go out after the store write.

import { createStore } from "../../core/store.js";
import { idSequence } from "../../core/ids.js";
import { ConflictError } from "../../core/errors.js";
import { oneOf } from "../../core/validate.js";
import { hashPassword } from "./passwords.js";
import { normaliseEmail, publicUser, validateUser } from "./user-record.js";
import { ROLES } from "./roles.js";

export function createUsers(ctx) {
  const store = createStore("user");
  const ids = idSequence("USR");

  const findByEmail = (email) => {
    const wanted = normaliseEmail(email);
    return store.list((u) => u.email === wanted)[0] ?? null;
  };

  function addUser(input, password, actorId = null) {
    const fields = validateUser(input);
    if (findByEmail(fields.email)) throw new ConflictError(`a user with e-mail ${fields.email} exists`);
    const row = store.insert({
      id: ids.next(),
      ...fields,
      passwordHash: hashPassword(password),
      active: true,
      createdAt: ctx.clock.now(),
    });
    ctx.events.publish("user.added", { userId: row.id, role: row.role, actorId });
    return row;
  }

  function setRole(id, role, actorId = null) {
    oneOf(role, ROLES, "role");
    const before = store.get(id);
    if (before.role === role) return before;
    const row = store.update(id, (u) => ({ ...u, role, agentId: role === "agent" ? u.agentId : null }));
    ctx.events.publish("user.roleChanged", { userId: id, from: before.role, to: role, actorId });
    return row;
  }

  function deactivate(id, actorId = null) {
    const before = store.get(id);
    if (!before.active) return before;
    const row = store.update(id, (u) => ({ ...u, active: false, deactivatedAt: ctx.clock.now() }));
    ctx.events.publish("user.deactivated", { userId: id, actorId });
    return row;
  }

  return {
    addUser,
    setRole,
    deactivate,
    findUser: store.find,
    getUser: (id) => store.get(id),
    findByEmail,
    listUsers: (where) => store.list(where),
    publicUser,
  };
}
