// The vessel record as the register keeps it. Dimensions are whole centimetres, deadweight whole
// kilograms, gross tonnage a plain number (it is a volume index, not a mass). Imports in metres and
// tonnes are converted before they get here (vessel-import.js).

import { ValidationError } from "../../core/errors.js";
import { assertWhole } from "../../core/units.js";
import { required } from "../../core/validate.js";
import { assertFlag } from "./flags.js";
import { assertImo } from "./imo.js";
import { assertVesselType } from "./vessel-types.js";

const DIMENSIONS = ["loaCm", "beamCm", "draughtCm", "grossTonnage", "deadweightKg"];
const EDITABLE = ["name", "flag", "type", "callSign", ...DIMENSIONS];

function cleanName(name) {
  if (typeof name !== "string") throw new ValidationError("name", "must be text");
  const trimmed = name.trim().replace(/\s+/g, " ").toUpperCase();
  if (trimmed.length < 2 || trimmed.length > 40) throw new ValidationError("name", "must be 2 to 40 characters");
  return trimmed;
}

function checkDimensions(record) {
  for (const field of DIMENSIONS) assertWhole(record[field], field);
  if (record.loaCm === 0) throw new ValidationError("loaCm", "must be positive");
  if (record.beamCm >= record.loaCm) throw new ValidationError("beamCm", "must be less than the length overall");
  if (record.draughtCm > 2_500) throw new ValidationError("draughtCm", "no vessel draws more than 25 m");
}

/** A new vessel's fields, checked and normalised (no id, no version). */
export function validateVesselInput(input) {
  required(input, ["imo", "name", "flag", "type", ...DIMENSIONS]);
  const record = {
    imo: assertImo(input.imo),
    name: cleanName(input.name),
    flag: assertFlag(input.flag),
    type: assertVesselType(input.type),
    callSign: input.callSign ? String(input.callSign).trim().toUpperCase() : null,
    loaCm: input.loaCm,
    beamCm: input.beamCm,
    draughtCm: input.draughtCm,
    grossTonnage: input.grossTonnage,
    deadweightKg: input.deadweightKg,
  };
  checkDimensions(record);
  return record;
}

/** A change to an existing vessel: only editable fields, checked against the merged record. */
export function applyVesselPatch(current, patch) {
  for (const key of Object.keys(patch)) {
    if (!EDITABLE.includes(key)) throw new ValidationError(key, "cannot be changed");
  }
  const next = { ...current, ...patch };
  if (patch.name !== undefined) next.name = cleanName(patch.name);
  if (patch.flag !== undefined) next.flag = assertFlag(patch.flag);
  if (patch.type !== undefined) next.type = assertVesselType(patch.type);
  checkDimensions(next);
  return next;
}
