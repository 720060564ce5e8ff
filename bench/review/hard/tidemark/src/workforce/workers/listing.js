// The paged worker listing behind the register screen: filters first, then a cursor page over id
// order. Filters never reorder; the register is always shown in registration (id) order.

import { paginate } from "../../core/paging.js";
import { oneOf } from "../../core/validate.js";
import { assertSkill } from "../records/skills.js";

const STATES = ["active", "inactive", "all"];

export function listWorkers(stores, config, { skill, state = "active", nameContains, limit, cursor } = {}) {
  oneOf(state, STATES, "state");
  if (skill !== undefined) assertSkill(skill);
  const needle = nameContains ? String(nameContains).toLowerCase() : null;
  const rows = stores.workers.list((w) => {
    if (state === "active" && !w.active) return false;
    if (state === "inactive" && w.active) return false;
    if (skill && !w.skills.includes(skill)) return false;
    if (needle && !w.name.toLowerCase().includes(needle)) return false;
    return true;
  });
  return paginate(rows, { limit, cursor }, config);
}
