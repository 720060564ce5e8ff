// Vessels the port may not receive: sanctioned vessels (open-ended, until the list drops them) and
// vessels under detention (for a period). Entries are keyed by IMO number, not by register id: the
// lists arrive for vessels the register has never seen. Periods are half-open; an open-ended one
// has end null.

import { ValidationError } from "../../core/errors.js";
import { idSequence } from "../../core/ids.js";
import { createStore } from "../../core/store.js";
import { contains, overlaps } from "../../core/time.js";
import { oneOf, required } from "../../core/validate.js";
import { assertImo } from "../register/imo.js";

export const BLOCK_KINDS = Object.freeze(["sanction", "detention"]);

/** An entry's period as an interval; an open end runs forever. */
export const periodOf = (entry) => ({ start: entry.start, end: entry.end ?? Infinity });

export function createBlockedList(ctx) {
  const store = createStore("blocked entry");
  const ids = idSequence("BLK");

  function block(input) {
    required(input, ["imo", "kind", "reference", "start"]);
    const imo = assertImo(input.imo);
    const end = input.end ?? null;
    if (!Number.isSafeInteger(input.start)) throw new ValidationError("start", "must be epoch milliseconds");
    if (end !== null && !(Number.isSafeInteger(end) && end > input.start)) throw new ValidationError("end", "must be after start");
    const entry = store.insert({
      id: ids.next(),
      imo,
      kind: oneOf(input.kind, BLOCK_KINDS, "kind"),
      reference: String(input.reference).trim(),
      start: input.start,
      end,
      liftedAt: null,
    });
    ctx.events.publish("vessel.blocked", { entryId: entry.id, imo, kind: entry.kind });
    return entry;
  }

  /** Ends an entry now (the list dropped the vessel, the detention was lifted). */
  function lift(id) {
    const now = ctx.clock.now();
    const entry = store.update(id, (draft) => ({ ...draft, end: draft.end === null || draft.end > now ? Math.max(now, draft.start + 1) : draft.end, liftedAt: now }));
    ctx.events.publish("vessel.unblocked", { entryId: id, imo: entry.imo });
    return entry;
  }

  const entriesFor = (imo) => store.list((entry) => entry.imo === imo);

  /** The entry that blocks the vessel at time `at`, or null. */
  const blockingAt = (imo, at) => entriesFor(imo).find((entry) => contains(periodOf(entry), at)) ?? null;

  /** The first entry that blocks any part of `window`, or null. */
  const blockingDuring = (imo, window) => entriesFor(imo).find((entry) => overlaps(periodOf(entry), window)) ?? null;

  return {
    block,
    lift,
    entriesFor,
    blockingAt,
    blockingDuring,
    isBlocked: (imo, at) => blockingAt(imo, at) !== null,
    listEntries: () => store.list(),
  };
}
