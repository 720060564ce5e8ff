// A gate appointment: a truck booked into one gate slot to drop a box or pick one up. Its window is
// the slot, half-open: a truck is on time from the slot's start until just before its end.

import { ValidationError } from "../../core/errors.js";
import { contains, MINUTE } from "../../core/time.js";
import { oneOf, pattern, required } from "../../core/validate.js";
import { assertContainerNumber, normaliseNumber } from "./iso6346.js";

export const APPOINTMENT_KINDS = Object.freeze(["drop", "pickup"]);
export const APPOINTMENT_STATUSES = Object.freeze(["booked", "cancelled", "used"]);
const PLATE = /^[A-Z0-9-]{5,10}$/;

export function newAppointment(input, id, window) {
  required(input, ["containerNumber", "kind", "haulier", "truckPlate"]);
  oneOf(input.kind, APPOINTMENT_KINDS, "kind");
  pattern(input.truckPlate, PLATE, "truckPlate");
  if (String(input.haulier).trim().length < 2) throw new ValidationError("haulier", "is too short");
  return {
    id,
    containerNumber: assertContainerNumber(normaliseNumber(input.containerNumber), "containerNumber"),
    kind: input.kind,
    haulier: String(input.haulier).trim(),
    truckPlate: input.truckPlate,
    window,
    status: "booked",
    usedAt: null,
  };
}

export const onTime = (appointment, at) => contains(appointment.window, at);

/** Whole minutes after the window closed; 0 for a truck inside or before its window. */
export function minutesLate(appointment, at) {
  if (at < appointment.window.end) return 0;
  return Math.floor((at - appointment.window.end) / MINUTE) + 1;
}
