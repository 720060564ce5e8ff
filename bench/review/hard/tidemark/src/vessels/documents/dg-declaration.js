// The dangerous-goods declaration: every IMDG item aboard with its UN number, class and mass. The
// agent's form gives masses in tonnes; they are converted to kilograms here, at the edge, and the
// declaration keeps the total per class for the berth's fire plan.

import { ValidationError } from "../../core/errors.js";
import { tonnesToKg } from "../../core/units.js";

const UN_NUMBER = /^UN\d{4}$/;
export const IMDG_CLASSES = Object.freeze(["1", "2.1", "2.2", "2.3", "3", "4.1", "4.2", "4.3", "5.1", "5.2", "6.1", "6.2", "7", "8", "9"]);

/** Classes the port only takes at the outer quay (Q4), away from the passenger terminal. */
export const OUTER_QUAY_CLASSES = Object.freeze(["1", "2.1", "2.3", "5.2", "7"]);

function checkItem(item, index) {
  const at = `items[${index}]`;
  const un = String(item?.un ?? "").trim().toUpperCase();
  if (!UN_NUMBER.test(un)) throw new ValidationError(`${at}.un`, `expected UN and four digits, got ${item?.un}`);
  const cls = String(item.class ?? "");
  if (!IMDG_CLASSES.includes(cls)) throw new ValidationError(`${at}.class`, `unknown IMDG class ${item.class}`);
  const tonnes = Number(item.tonnes);
  if (!Number.isFinite(tonnes) || tonnes <= 0) throw new ValidationError(`${at}.tonnes`, "must be a positive mass");
  return { un, class: cls, massKg: tonnesToKg(tonnes), inTransit: item.inTransit === true };
}

/** Checks a declaration and returns its summary: items, total mass and mass per class in kg. */
export function checkDgDeclaration(content) {
  const raw = content?.items;
  if (!Array.isArray(raw)) throw new ValidationError("items", "must be a list (empty for a vessel in ballast)");
  const items = raw.map(checkItem);
  const massByClassKg = {};
  for (const item of items) massByClassKg[item.class] = (massByClassKg[item.class] ?? 0) + item.massKg;
  const totalMassKg = items.reduce((sum, item) => sum + item.massKg, 0);
  const outerQuayOnly = items.some((item) => OUTER_QUAY_CLASSES.includes(item.class));
  return { itemCount: items.length, totalMassKg, massByClassKg, outerQuayOnly };
}
