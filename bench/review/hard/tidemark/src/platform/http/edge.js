// Converting what the API receives into tidemark's units, once, here: ISO times to epoch ms,
// metres to whole centimetres, tonnes to kilograms. Handlers never see the outside forms.

import { ValidationError } from "../../core/errors.js";
import { interval, parseIso } from "../../core/time.js";
import { metresToCm, tonnesToKg } from "../../core/units.js";

/** An ISO time from the query or body; undefined when absent and not required. */
export function timeParam(source, name, { required = false } = {}) {
  const value = source?.[name];
  if (value === undefined || value === "") {
    if (required) throw new ValidationError(name, "is required");
    return undefined;
  }
  return parseIso(String(value), name);
}

/** ?from=…&to=… as a half-open window; either both or neither. */
export function windowParam(query) {
  const start = timeParam(query, "from");
  const end = timeParam(query, "to");
  if (start === undefined && end === undefined) return undefined;
  if (start === undefined || end === undefined) throw new ValidationError(start === undefined ? "from" : "to", "from and to go together");
  return interval(start, end);
}

const positiveNumber = (value, name) => {
  const n = typeof value === "string" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n) || n <= 0) throw new ValidationError(name, `expected a positive number, got ${value}`);
  return n;
};

/** A length given in metres ("lengthM": 199.9) as whole centimetres. */
export const metresParam = (source, name) => metresToCm(positiveNumber(source?.[name], name));

/** A mass given in tonnes as whole kilograms. */
export const tonnesParam = (source, name) => tonnesToKg(positiveNumber(source?.[name], name));

export function enumParam(source, name, allowed) {
  const value = source?.[name];
  if (value === undefined || value === "") return undefined;
  if (!allowed.includes(value)) throw new ValidationError(name, `must be one of ${allowed.join(", ")}`);
  return value;
}
