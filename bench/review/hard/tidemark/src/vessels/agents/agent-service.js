// The agents' register. Codes are unique; an agent is never removed (old calls name it), only
// made inactive, and an inactive agent cannot declare new calls.

import { ConflictError } from "../../core/errors.js";
import { idSequence } from "../../core/ids.js";
import { paginate } from "../../core/paging.js";
import { createStore } from "../../core/store.js";
import { applyAgentPatch, validateAgentInput } from "./agent-record.js";

export function createAgents(ctx) {
  const store = createStore("agent");
  const ids = idSequence("AGT");

  function addAgent(input) {
    const fields = validateAgentInput(input);
    if (store.list((a) => a.code === fields.code).length > 0) throw new ConflictError(`agent code ${fields.code} is taken`);
    const agent = store.insert({ id: ids.next(), ...fields, createdAt: ctx.clock.now() });
    ctx.events.publish("agent.added", { agentId: agent.id, code: agent.code });
    return agent;
  }

  function updateAgent(id, patch) {
    const agent = store.update(id, (current) => applyAgentPatch(current, patch));
    ctx.events.publish("agent.updated", { agentId: id, fields: Object.keys(patch) });
    return agent;
  }

  const findAgent = (id) => store.find(id);
  const getAgent = (id) => store.get(id);
  const findByCode = (code) => store.list((a) => a.code === String(code).toUpperCase())[0] ?? null;

  /** Throws unless the agent exists and is active: the check before a call is declared for it. */
  function assertActive(id) {
    const agent = store.get(id);
    if (!agent.active) throw new ConflictError(`agent ${agent.code} is inactive`);
    return agent;
  }

  const listAgents = ({ activeOnly = false } = {}, page = {}) => paginate(store.list((a) => !activeOnly || a.active), page, ctx.config);

  return { addAgent, updateAgent, findAgent, getAgent, findByCode, assertActive, listAgents };
}
