// Instalment plans for an agent in difficulty: an invoice's outstanding amount split into equal
// instalments (allocateMinor: the first ones carry the odd cents), one every `everyDays` days.

import { ValidationError } from "../../core/errors.js";
import { allocateMinor } from "../../core/money.js";
import { DAY } from "../../core/time.js";
import { outstandingMinor } from "../records/invoice.js";

export const MAX_INSTALMENTS = 12;

export function instalmentPlan(invoice, { count, firstDueAt, everyDays = 30 }) {
  if (!Number.isInteger(count) || count < 2 || count > MAX_INSTALMENTS) {
    throw new ValidationError("count", `must be 2 to ${MAX_INSTALMENTS} instalments`);
  }
  if (!Number.isInteger(everyDays) || everyDays <= 0) throw new ValidationError("everyDays", "must be a positive whole number");
  const owed = outstandingMinor(invoice);
  if (owed <= 0) throw new ValidationError("invoice", `${invoice.number} has nothing outstanding`);
  return allocateMinor(owed, count).map((amountMinor, i) => ({
    n: i + 1,
    dueAt: firstDueAt + i * everyDays * DAY,
    amountMinor,
  }));
}

/** The instalments a sum paid so far has covered, in order; a part-paid instalment is not covered. */
export function coveredInstalments(plan, paidMinor) {
  let left = paidMinor;
  let covered = 0;
  for (const instalment of plan) {
    if (left < instalment.amountMinor) break;
    left -= instalment.amountMinor;
    covered++;
  }
  return covered;
}
