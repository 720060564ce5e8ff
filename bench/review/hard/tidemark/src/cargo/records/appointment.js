// A gate appointment: a truck booked into one gate slot to drop a box or pick one up.

import { ValidationError } from "../../core/errors.js";
import { oneOf, pattern, required } from "../../core/validate.js";
import { assertContainerNumber, normaliseNumber } from "./iso6346.js";

export const APPOINTMENT_KINDS = Object.freeze(["drop", "pickup"]);
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
  };
}
