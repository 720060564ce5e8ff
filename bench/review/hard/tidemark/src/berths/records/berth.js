// A berth is a stretch of one quay: [fromCm, toCm) measured from the quay's north end, half-open
// like every interval in tidemark, so B1-1 ending at 20000 and B1-2 starting there do not share a
// centimetre. Its id names the quay ("B1-3" is the third berth of Q1).

import { ValidationError } from "../../core/errors.js";
import { assertWhole } from "../../core/units.js";
import { pattern, required } from "../../core/validate.js";
import { assertVesselType, FACILITIES } from "./vesselTypes.js";

export const BERTH_ID = /^B([1-4])-(\d{1,2})$/;

export const quayOfBerthId = (id) => `Q${BERTH_ID.exec(id)?.[1]}`;

export const berthLengthCm = (berth) => berth.toCm - berth.fromCm;

/** A berth record from input, checked against the quay it lies on. */
export function validateBerth(input, quay) {
  required(input, ["id", "quayId", "fromCm", "toCm", "depthCm", "vesselTypes"]);
  pattern(input.id, BERTH_ID, "id");
  if (quayOfBerthId(input.id) !== input.quayId) throw new ValidationError("quayId", `berth ${input.id} is not on ${input.quayId}`);
  if (quay.id !== input.quayId) throw new ValidationError("quayId", `expected quay ${input.quayId}, got ${quay.id}`);
  assertWhole(input.fromCm, "fromCm");
  assertWhole(input.toCm, "toCm");
  assertWhole(input.depthCm, "depthCm");
  if (input.toCm <= input.fromCm) throw new ValidationError("toCm", "must be after fromCm");
  if (input.toCm > quay.lengthCm) throw new ValidationError("toCm", `beyond the quay's ${quay.lengthCm} cm`);
  if (!Array.isArray(input.vesselTypes) || input.vesselTypes.length === 0) {
    throw new ValidationError("vesselTypes", "a berth takes at least one vessel type");
  }
  input.vesselTypes.forEach((t, i) => assertVesselType(t, `vesselTypes[${i}]`));
  const facilities = input.facilities ?? [];
  for (const f of facilities) if (!FACILITIES.includes(f)) throw new ValidationError("facilities", `unknown facility ${f}`);
  return {
    id: input.id,
    quayId: input.quayId,
    name: input.name ?? input.id,
    fromCm: input.fromCm,
    toCm: input.toCm,
    depthCm: input.depthCm,
    vesselTypes: [...new Set(input.vesselTypes)],
    facilities: [...new Set(facilities)],
  };
}
