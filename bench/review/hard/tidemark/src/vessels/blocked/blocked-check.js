// The check the call service runs before it accepts a call: no part of the planned stay may fall
// in a blocking period. The message names the list and the reference, which is what the agent
// needs to chase it with the authority.

import { ConflictError } from "../../core/errors.js";
import { toIso } from "../../core/time.js";

const KIND_TEXT = { sanction: "is on the sanctions list", detention: "is under detention" };

export function describeEntry(entry) {
  const until = entry.end === null ? "until further notice" : `until ${toIso(entry.end)}`;
  return `IMO ${entry.imo} ${KIND_TEXT[entry.kind] ?? entry.kind} (${entry.reference}) ${until}`;
}

/** Wraps the blocked list for the call service: assertNotBlocked(imo, stay) throws ConflictError. */
export function createBlockedCheck(list) {
  return {
    assertNotBlocked(imo, stay) {
      const entry = list.blockingDuring(imo, stay);
      if (entry) throw new ConflictError(describeEntry(entry));
    },
    /** The reasons a vessel is blocked right now, for the arrival board. */
    reasonsNow(imo, now) {
      return list
        .entriesFor(imo)
        .filter((entry) => list.blockingAt(imo, now)?.id === entry.id)
        .map(describeEntry);
    },
  };
}
