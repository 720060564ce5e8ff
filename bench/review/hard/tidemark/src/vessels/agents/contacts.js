// People at an agency the port writes to, each with a role: operations (arrivals, berths),
// documents (crew lists, declarations) or accounts (invoices). One contact per role is primary;
// notices go to the primary contact of the role and fall back to the agency's own address.

import { ValidationError } from "../../core/errors.js";
import { idSequence } from "../../core/ids.js";
import { createStore } from "../../core/store.js";
import { oneOf, required } from "../../core/validate.js";
import { assertEmail, assertPhone } from "./agent-record.js";

export const ROLES = Object.freeze(["operations", "documents", "accounts"]);

/** deps.agents: the agents' register (getAgent). */
export function createContacts(ctx, { agents }) {
  const store = createStore("contact");
  const ids = idSequence("CNT");

  const contactsOf = (agentId, role) => store.list((c) => c.agentId === agentId && (!role || c.role === role));

  function addContact(agentId, input) {
    agents.getAgent(agentId);
    required(input, ["name", "role", "email"]);
    const role = oneOf(input.role, ROLES, "role");
    const name = String(input.name).trim();
    if (!name) throw new ValidationError("name", "is required");
    const first = contactsOf(agentId, role).length === 0;
    return store.insert({
      id: ids.next(),
      agentId,
      role,
      name,
      email: assertEmail(input.email),
      phone: input.phone ? assertPhone(input.phone) : null,
      primary: first || input.primary === true,
    });
  }

  /** Makes one contact the primary of its role; the former primary stays as a plain contact. */
  function makePrimary(contactId) {
    const contact = store.get(contactId);
    for (const other of contactsOf(contact.agentId, contact.role)) {
      if (other.primary && other.id !== contactId) store.update(other.id, (draft) => ({ ...draft, primary: false }));
    }
    return store.update(contactId, (draft) => ({ ...draft, primary: true }));
  }

  /** Where a notice for `role` goes: the primary contact's address, or the agency's. */
  function addressFor(agentId, role) {
    const agent = agents.getAgent(agentId);
    const primary = contactsOf(agentId, role).find((c) => c.primary);
    return primary ? { name: primary.name, email: primary.email } : { name: agent.name, email: agent.email };
  }

  const removeContact = (contactId) => store.remove(contactId);

  return { addContact, makePrimary, addressFor, contactsOf, removeContact };
}
