// A port call moves expected -> arrived -> berthed -> departed; it can be cancelled until it has
// berthed. A vessel that arrives and leaves again without berthing (anchorage only, bunkers at the
// buoy) departs straight from arrived.

import { ConflictError } from "../../core/errors.js";

export const CALL_STATES = Object.freeze(["expected", "arrived", "berthed", "departed", "cancelled"]);

const NEXT = Object.freeze({
  expected: ["arrived", "cancelled"],
  arrived: ["berthed", "departed", "cancelled"],
  berthed: ["departed"],
  departed: [],
  cancelled: [],
});

export const canTransition = (from, to) => (NEXT[from] ?? []).includes(to);

export function assertTransition(from, to) {
  if (!canTransition(from, to)) throw new ConflictError(`a call cannot go from ${from} to ${to}`);
}

/** Calls that still hold a place in the port's plans. */
export const isOpen = (state) => state === "expected" || state === "arrived" || state === "berthed";

/** Calls whose vessel is inside port limits now. */
export const isInPort = (state) => state === "arrived" || state === "berthed";

export const isFinal = (state) => NEXT[state]?.length === 0;

/** How each state reads on the arrival board. */
export const STATE_LABELS = Object.freeze({
  expected: "Expected",
  arrived: "At anchorage",
  berthed: "Alongside",
  departed: "Sailed",
  cancelled: "Cancelled",
});

export const stateLabel = (state) => STATE_LABELS[state] ?? state;
