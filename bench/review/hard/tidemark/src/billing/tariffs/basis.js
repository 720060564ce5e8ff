// How much of a tariff's unit a usage amounts to. A usage is what happened, in the house units:
//   { grossTonnage, lengthCm, stay: {start, end}, moves, reeferDays, valueMinor }
// and the quantity is what the tariff's rate multiplies.

import { ValidationError } from "../../core/errors.js";
import { chargeableDays } from "../../core/time.js";
import { BASES } from "../records/tariff.js";

const CM_PER_METRE = 100;

/** A started metre is a metre: a 199.40 m vessel pays for 200 m. */
export const chargeableMetres = (lengthCm) => Math.ceil(lengthCm / CM_PER_METRE);

function need(usage, field, basis) {
  const value = usage[field];
  if (value === undefined || value === null) throw new ValidationError(field, `is needed for the ${basis} basis`);
  return value;
}

export function quantityFor(basis, usage) {
  switch (basis) {
    case BASES.GT_CALL:
      return need(usage, "grossTonnage", basis);
    case BASES.METRE_DAY:
      return chargeableMetres(need(usage, "lengthCm", basis)) * chargeableDays(need(usage, "stay", basis));
    case BASES.MOVE:
      return need(usage, "moves", basis);
    case BASES.REEFER_DAY:
      return need(usage, "reeferDays", basis);
    case BASES.VALUE:
      return need(usage, "valueMinor", basis);
    default:
      throw new ValidationError("basis", `unknown basis ${basis}`);
  }
}

/** What a quantity reads as on an invoice line. */
export function quantityLabel(basis, quantity) {
  switch (basis) {
    case BASES.GT_CALL:
      return `${quantity} GT`;
    case BASES.METRE_DAY:
      return `${quantity} metre-days`;
    case BASES.MOVE:
      return `${quantity} moves`;
    case BASES.REEFER_DAY:
      return `${quantity} reefer-days`;
    default:
      return `declared ${quantity}`;
  }
}
