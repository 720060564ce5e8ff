// Voyage numbers as the carriers give them: three or four digits and a direction letter ("042N",
// "1187E"). The same voyage number can come back on another vessel, never twice on one vessel.

import { ValidationError } from "../../core/errors.js";

const VOYAGE = /^(\d{3,4})([NSEW])$/;

export function assertVoyage(value, field = "voyage") {
  const text = typeof value === "string" ? value.trim().toUpperCase() : "";
  if (!VOYAGE.test(text)) throw new ValidationError(field, `expected digits and a direction letter, got ${value}`);
  return text;
}

export function parseVoyage(value) {
  const [, digits, direction] = VOYAGE.exec(assertVoyage(value));
  return { number: Number(digits), direction };
}

/** The voyage after this one in the carrier's numbering: same width, direction flipped N<->S, E<->W. */
export function nextVoyage(value) {
  const { number, direction } = parseVoyage(value);
  const flip = { N: "S", S: "N", E: "W", W: "E" }[direction];
  const width = assertVoyage(value).length - 1;
  return `${String(number + 1).padStart(width, "0")}${flip}`;
}

export const sameVoyage = (a, b) => assertVoyage(a) === assertVoyage(b);

/** The direction letter in words, for notices: "042N" -> "northbound". */
export function directionOf(value) {
  const { direction } = parseVoyage(value);
  return { N: "northbound", S: "southbound", E: "eastbound", W: "westbound" }[direction];
}
