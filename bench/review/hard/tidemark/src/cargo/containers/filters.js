// Search filters for containers. Unknown filters are refused rather than ignored, so a typo in a
// query does not quietly return the whole yard.

import { ValidationError } from "../../core/errors.js";
import { oneOf } from "../../core/validate.js";
import { STATUSES } from "../records/container.js";
import { normaliseNumber } from "../records/iso6346.js";
import { SIZE_TYPES } from "../records/sizeType.js";

const KNOWN = ["status", "blockId", "line", "sizeType", "reefer", "dangerous", "numberPrefix", "limit", "cursor"];

export function normaliseFilters(query = {}) {
  for (const key of Object.keys(query)) {
    if (!KNOWN.includes(key)) throw new ValidationError(key, "is not a container filter");
  }
  const f = {};
  if (query.status !== undefined) f.status = oneOf(query.status, STATUSES, "status");
  if (query.sizeType !== undefined) f.sizeType = oneOf(query.sizeType, SIZE_TYPES, "sizeType");
  if (query.blockId !== undefined) f.blockId = String(query.blockId);
  if (query.line !== undefined) f.line = String(query.line).toUpperCase();
  if (query.numberPrefix !== undefined) f.numberPrefix = normaliseNumber(query.numberPrefix);
  for (const flag of ["reefer", "dangerous"]) {
    if (query[flag] === undefined) continue;
    if (typeof query[flag] !== "boolean") throw new ValidationError(flag, "must be true or false");
    f[flag] = query[flag];
  }
  return f;
}

export function matches(container, f) {
  if (f.status !== undefined && container.status !== f.status) return false;
  if (f.sizeType !== undefined && container.sizeType !== f.sizeType) return false;
  if (f.blockId !== undefined && container.slot?.blockId !== f.blockId) return false;
  if (f.line !== undefined && container.line !== f.line) return false;
  if (f.numberPrefix !== undefined && !container.number.startsWith(f.numberPrefix)) return false;
  if (f.reefer !== undefined && (container.setPointC !== null) !== f.reefer) return false;
  if (f.dangerous !== undefined && (container.imdgClass !== null) !== f.dangerous) return false;
  return true;
}
