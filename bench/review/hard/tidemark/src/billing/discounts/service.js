// Negotiated discounts. Two discounts of one account on the same tariff (or both on all tariffs)
// may not be in force at the same time; a discount on one tariff and one on all may, and the line
// takes the larger (see apply.js).

import { ConflictError, ValidationError } from "../../core/errors.js";
import { overlaps } from "../../core/time.js";
import { validateDiscount } from "../records/discount.js";
import { OPEN_END } from "../records/tariff.js";

export const discountValidity = (d) => ({ start: d.validFrom, end: d.validTo ?? OPEN_END });

export function createDiscountService(ctx, stores, { ids, accounts }) {
  function addDiscount(input) {
    const fields = validateDiscount(input);
    accounts.getAccount(fields.accountId);
    const clash = stores.discounts.list(
      (d) => d.accountId === fields.accountId && d.tariffCode === fields.tariffCode && overlaps(discountValidity(d), discountValidity(fields)),
    )[0];
    if (clash) throw new ConflictError(`discount ${clash.id} already covers that period`);
    return stores.discounts.insert({ id: ids.discount.next(), ...fields, createdAt: ctx.clock.now() });
  }

  /** Ends a discount at `at` (it no longer applies from then on). */
  function endDiscount(id, at) {
    const current = stores.discounts.get(id);
    if (at <= current.validFrom) throw new ValidationError("at", "a discount ends after it starts");
    if (current.validTo !== null && at >= current.validTo) return current;
    return stores.discounts.update(id, (d) => ({ ...d, validTo: at }));
  }

  const discountsOf = (accountId) => stores.discounts.list((d) => d.accountId === accountId);

  return { addDiscount, endDiscount, discountsOf };
}
