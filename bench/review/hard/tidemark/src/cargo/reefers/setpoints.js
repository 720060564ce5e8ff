// Reefer set-points are degrees Celsius to one decimal. The band a reading may drift from its
// set-point depends on the cargo: frozen cargo tolerates more than chilled fruit.

import { ValidationError } from "../../core/errors.js";

export const LOWEST_SET_POINT_C = -35;
export const HIGHEST_SET_POINT_C = 30;

export function assertSetPoint(value, field = "setPointC") {
  if (typeof value !== "number" || !Number.isFinite(value)) throw new ValidationError(field, `expected degrees Celsius, got ${value}`);
  if (value < LOWEST_SET_POINT_C || value > HIGHEST_SET_POINT_C) {
    throw new ValidationError(field, `must lie between ${LOWEST_SET_POINT_C} and ${HIGHEST_SET_POINT_C} °C`);
  }
  if (Math.round(value * 10) !== value * 10) throw new ValidationError(field, "takes one decimal at most");
  return value;
}

/** "frozen" at or below -10 °C, "chilled" otherwise. */
export const cargoBand = (setPointC) => (setPointC <= -10 ? "frozen" : "chilled");

/** Allowed drift in °C either side of the set-point. */
export const toleranceC = (setPointC) => (cargoBand(setPointC) === "frozen" ? 1.5 : 0.5);

/** Signed deviation of a reading, rounded to a tenth so 0.1 + 0.2 does not raise an alarm. */
export const deviationC = (setPointC, tempC) => Math.round((tempC - setPointC) * 10) / 10;

export const outOfBand = (setPointC, tempC) => Math.abs(deviationC(setPointC, tempC)) > toleranceC(setPointC);
