// IMDG dangerous goods classes (and divisions) the yard accepts. Class 1 (explosives) and 7
// (radioactive) are accepted only by appointment with the harbour master and never stored overnight;
// the yard still records them.

import { ValidationError } from "../../core/errors.js";

export const IMDG_CLASSES = Object.freeze([
  "1", "2.1", "2.2", "2.3", "3", "4.1", "4.2", "4.3", "5.1", "5.2", "6.1", "6.2", "7", "8", "9",
]);

const NAMES = Object.freeze({
  "1": "explosives",
  "2.1": "flammable gases",
  "2.2": "non-flammable, non-toxic gases",
  "2.3": "toxic gases",
  "3": "flammable liquids",
  "4.1": "flammable solids",
  "4.2": "substances liable to spontaneous combustion",
  "4.3": "substances which emit flammable gases in contact with water",
  "5.1": "oxidizing substances",
  "5.2": "organic peroxides",
  "6.1": "toxic substances",
  "6.2": "infectious substances",
  "7": "radioactive material",
  "8": "corrosive substances",
  "9": "miscellaneous dangerous substances",
});

/** Classes the harbour master must clear before the box comes in, and that leave the same day. */
export const SAME_DAY_CLASSES = Object.freeze(["1", "7"]);

export function assertImdgClass(value, field = "imdgClass") {
  if (value === null || value === undefined) return null;
  const text = String(value).trim();
  if (!IMDG_CLASSES.includes(text)) throw new ValidationError(field, `not an IMDG class: ${value}`);
  return text;
}

/** "5.1" → "5": divisions of one class share its placard colour on the yard plan. */
export const imdgClassGroup = (imdgClass) => imdgClass.split(".")[0];

/** "class 3 (flammable liquids)" for lists and refusals. */
export const imdgLabel = (imdgClass) => `class ${imdgClass} (${NAMES[imdgClass]})`;

export const sameDayOnly = (imdgClass) => SAME_DAY_CLASSES.includes(imdgClass);
