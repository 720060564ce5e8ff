// When a pre-arrival document is due: a number of hours before the call's current ETA, so a
// revised ETA moves the deadline with it. A document received at the deadline itself is late.

import { HOUR, MINUTE, contains } from "../../core/time.js";
import { DOCUMENT_KINDS } from "./document-kinds.js";

export const dueAt = (kind, call) => call.eta - DOCUMENT_KINDS[kind].dueHoursBeforeEta * HOUR;

export const isOnTime = (kind, call, receivedAt) => receivedAt < dueAt(kind, call);

/** Whole minutes left before the document is due; negative once it is overdue. */
export const minutesLeft = (kind, call, now) => Math.floor((dueAt(kind, call) - now) / MINUTE);

/** The calls whose deadline for `kind` falls inside `window`: the morning reminder run. */
export const dueWithin = (kind, calls, window) => calls.filter((call) => contains(window, dueAt(kind, call)));

/** The deadline the agent sees: "due 2026-03-03 12:00 UTC (in 5 h 20 min)". */
export function describeDeadline(kind, call, now) {
  const due = dueAt(kind, call);
  const left = minutesLeft(kind, call, now);
  const when = new Date(due).toISOString().slice(0, 16).replace("T", " ");
  const span = `${Math.floor(Math.abs(left) / 60)} h ${Math.abs(left) % 60} min`;
  return left >= 0 ? `due ${when} UTC (in ${span})` : `was due ${when} UTC (${span} ago)`;
}

/** Every deadline of a call for the kinds it owes, soonest first: the agent portal's checklist. */
export function deadlinesOf(kinds, call, now) {
  return kinds
    .map((kind) => ({ kind, dueAt: dueAt(kind, call), minutesLeft: minutesLeft(kind, call, now) }))
    .toSorted((a, b) => a.dueAt - b.dueAt);
}
