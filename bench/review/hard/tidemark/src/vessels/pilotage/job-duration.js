// How long a pilotage job keeps a pilot busy: the transit between the boarding point and the
// harbour entrance plus the manoeuvre in the basin, which grows with the vessel's size class.
// A shift from one berth to another has no transit.

import { ValidationError } from "../../core/errors.js";
import { MINUTE } from "../../core/time.js";
import { getBoardingPoint } from "./boarding-points.js";

export const MOVEMENTS = Object.freeze(["in", "out", "shift"]);

const MANOEUVRE_MINUTES = Object.freeze({ S: 20, M: 30, L: 45, XL: 60 });

export function manoeuvreMinutes(sizeClass) {
  const minutes = MANOEUVRE_MINUTES[sizeClass];
  if (minutes === undefined) throw new ValidationError("sizeClass", `unknown size class ${sizeClass}`);
  return minutes;
}

/** Minutes of one job. */
export function jobMinutes({ movement, boardingPointId }, sizeClass) {
  if (!MOVEMENTS.includes(movement)) throw new ValidationError("movement", `unknown movement ${movement}`);
  const manoeuvre = manoeuvreMinutes(sizeClass);
  if (movement === "shift") return manoeuvre;
  return getBoardingPoint(boardingPointId).transitMinutes + manoeuvre;
}

/** The half-open interval a booking keeps a pilot busy, from the booked time. */
export function jobInterval(booking, sizeClass) {
  return { start: booking.at, end: booking.at + jobMinutes(booking, sizeClass) * MINUTE };
}
