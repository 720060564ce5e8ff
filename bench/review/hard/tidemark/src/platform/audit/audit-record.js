// One line of the audit trail: who did what to which record, when. Entries are appended and never
// changed; `detail` holds what the event carried (a before/after snapshot when the flag is on).

import { pattern, required } from "../../core/validate.js";

export const ENTITY_TYPES = Object.freeze(["user", "flag", "session", "vessel", "call", "berth", "invoice", "notification"]);

const ACTION = /^[a-z]+(\.[a-zA-Z]+)+$/; // the event type it came from, e.g. "user.roleChanged"

export function auditEntry(id, input, at) {
  required(input, ["action", "entityType", "entityId"]);
  pattern(input.action, ACTION, "action");
  if (!ENTITY_TYPES.includes(input.entityType)) throw new Error(`audit: unknown entity type ${input.entityType}`);
  return {
    id,
    at,
    actorId: input.actorId ?? "system",
    action: input.action,
    entityType: input.entityType,
    entityId: String(input.entityId),
    detail: input.detail ?? null,
  };
}

/** "USR-000003 user.roleChanged user USR-000007" — the line the CSV and the log print. */
export const describeEntry = (e) => `${e.actorId} ${e.action} ${e.entityType} ${e.entityId}`;
