// A quay of Alvarim ("Q1".."Q4"): its length along the face in cm and its bollards. Bollard
// positions are measured from the quay's north end, like berth stretches.

import { ValidationError } from "../../core/errors.js";
import { assertWhole } from "../../core/units.js";
import { pattern, required } from "../../core/validate.js";
import { byNumber } from "../../core/sort.js";

export const QUAY_ID = /^Q[1-4]$/;
export const BOLLARD_ID = /^Q[1-4]-\d{2}$/;

function validateBollard(bollard, quayId, lengthCm, at) {
  required(bollard, ["id", "atCm", "swlKg"]);
  pattern(bollard.id, BOLLARD_ID, `bollards[${at}].id`);
  if (!bollard.id.startsWith(`${quayId}-`)) throw new ValidationError(`bollards[${at}].id`, `bollard ${bollard.id} is not on ${quayId}`);
  assertWhole(bollard.atCm, `bollards[${at}].atCm`);
  assertWhole(bollard.swlKg, `bollards[${at}].swlKg`);
  if (bollard.atCm > lengthCm) throw new ValidationError(`bollards[${at}].atCm`, `beyond the quay's ${lengthCm} cm`);
  return { id: bollard.id, atCm: bollard.atCm, swlKg: bollard.swlKg };
}

/** A quay record from input; bollards come back ordered along the face. */
export function validateQuay(input) {
  required(input, ["id", "name", "lengthCm"]);
  pattern(input.id, QUAY_ID, "id");
  assertWhole(input.lengthCm, "lengthCm");
  if (input.lengthCm === 0) throw new ValidationError("lengthCm", "a quay has a length");
  const bollards = (input.bollards ?? []).map((b, i) => validateBollard(b, input.id, input.lengthCm, i));
  const ids = new Set(bollards.map((b) => b.id));
  if (ids.size !== bollards.length) throw new ValidationError("bollards", "duplicate bollard id");
  return {
    id: input.id,
    name: String(input.name),
    lengthCm: input.lengthCm,
    bollards: bollards.toSorted(byNumber("atCm")),
  };
}
