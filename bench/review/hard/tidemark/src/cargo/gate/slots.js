// Gate slots. The truck gate opens at 06:00 and closes at 22:00 UTC; the day is cut into hour-long
// slots, each a half-open interval, so a slot's end is the next slot's start.

import { ValidationError } from "../../core/errors.js";
import { contains, HOUR, interval, MINUTE, startOfDay } from "../../core/time.js";

export const GATE_OPEN_HOUR = 6;
export const GATE_CLOSE_HOUR = 22;
export const SLOT_MINUTES = 60;
/** Trucks one slot takes when the deployment does not say otherwise (four lanes, six trucks each). */
export const TRUCKS_PER_SLOT = 24;

export function slotsOfDay(t) {
  const day = startOfDay(t);
  const slots = [];
  for (let start = day + GATE_OPEN_HOUR * HOUR; start < day + GATE_CLOSE_HOUR * HOUR; start += SLOT_MINUTES * MINUTE) {
    slots.push(interval(start, start + SLOT_MINUTES * MINUTE));
  }
  return slots;
}

/** The slot a time falls in, or null when the gate is closed then. */
export const slotContaining = (t) => slotsOfDay(t).find((slot) => contains(slot, t)) ?? null;

/** The slot that starts exactly at t; bookings name a slot by its start. */
export function slotStartingAt(t, field = "start") {
  const slot = slotContaining(t);
  if (!slot || slot.start !== t) throw new ValidationError(field, "is not the start of a gate slot");
  return slot;
}
