// Small checks for incoming records; each throws ValidationError naming the field.

import { ValidationError } from "./errors.js";

export function required(record, fields) {
  for (const field of fields) {
    if (record[field] === undefined || record[field] === null || record[field] === "") throw new ValidationError(field, "is required");
  }
  return record;
}

export function oneOf(value, allowed, field) {
  if (!allowed.includes(value)) throw new ValidationError(field, `must be one of ${allowed.join(", ")}`);
  return value;
}

export function pattern(value, re, field) {
  if (typeof value !== "string" || !re.test(value)) throw new ValidationError(field, `does not match ${re}`);
  return value;
}
