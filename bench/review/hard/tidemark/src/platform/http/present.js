// The outside form of a record: epoch-ms times as ISO strings. Fields are recognised by name —
// "at", anything ending in "At", and a call's "eta"/"etd". Centimetres and minor units stay as
// they are: their field names say the unit, and clients convert for display.

import { toIso } from "../../core/time.js";

const isTimeField = (key) => key === "at" || key === "eta" || key === "etd" || /[a-z]At$/.test(key);

export function present(record) {
  if (record === null || typeof record !== "object") return record;
  if (Array.isArray(record)) return record.map(present);
  const out = {};
  for (const [key, value] of Object.entries(record)) {
    if (isTimeField(key) && Number.isFinite(value)) out[key] = toIso(value);
    else if (value && typeof value === "object") out[key] = present(value);
    else out[key] = value;
  }
  return out;
}
