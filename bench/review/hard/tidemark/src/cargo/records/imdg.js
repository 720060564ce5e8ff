// IMDG dangerous goods classes (and divisions) the yard accepts. Class 1 (explosives) and 7
// (radioactive) are accepted only by appointment with the harbour master and never stored overnight;
// the yard still records them.

import { ValidationError } from "../../core/errors.js";

export const IMDG_CLASSES = Object.freeze([
  "1", "2.1", "2.2", "2.3", "3", "4.1", "4.2", "4.3", "5.1", "5.2", "6.1", "6.2", "7", "8", "9",
]);

export function assertImdgClass(value, field = "imdgClass") {
  if (value === null || value === undefined) return null;
  const text = String(value).trim();
  if (!IMDG_CLASSES.includes(text)) throw new ValidationError(field, `not an IMDG class: ${value}`);
  return text;
}

/** "5.1" → "5": the segregation table is kept by class, divisions share their class's row. */
export const imdgClassGroup = (imdgClass) => imdgClass.split(".")[0];
