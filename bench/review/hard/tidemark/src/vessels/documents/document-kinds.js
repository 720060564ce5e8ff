// Pre-arrival documents the port asks of every call, and how long before the ETA each is due.
// The dangerous-goods declaration is due earlier: the harbour master plans the berth and the fire
// watch from it.

import { oneOf } from "../../core/validate.js";
import { alwaysDeclaresDangerousGoods } from "../register/vessel-types.js";

export const DOCUMENT_KINDS = Object.freeze({
  crew_list: Object.freeze({ label: "Crew list", form: "FAL 5", dueHoursBeforeEta: 24, desk: "immigration" }),
  dg_declaration: Object.freeze({ label: "Dangerous goods declaration", form: "FAL 7", dueHoursBeforeEta: 48, desk: "harbour master" }),
});

export const KIND_CODES = Object.freeze(Object.keys(DOCUMENT_KINDS));

export const assertKind = (kind) => oneOf(kind, KIND_CODES, "kind");

export const kindLabel = (kind) => DOCUMENT_KINDS[kind]?.label ?? kind;

/** The documents a call of this vessel must have: a crew list always, a DG declaration for tankers and gas carriers. */
export function requiredKinds(vessel) {
  const kinds = ["crew_list"];
  if (alwaysDeclaresDangerousGoods(vessel.type)) kinds.push("dg_declaration");
  return kinds;
}

/** "Crew list (FAL 5)" */
export const kindTitle = (kind) => (DOCUMENT_KINDS[kind] ? `${DOCUMENT_KINDS[kind].label} (${DOCUMENT_KINDS[kind].form})` : kind);

/** The port desk that reads a kind of document and answers the agent's questions about it. */
export const deskFor = (kind) => DOCUMENT_KINDS[kind]?.desk ?? "harbour master";

/** Kinds a call owes that are not in `received` (a list of kinds), in the order requiredKinds gives. */
export const outstandingKinds = (vessel, received) => requiredKinds(vessel).filter((kind) => !received.includes(kind));
