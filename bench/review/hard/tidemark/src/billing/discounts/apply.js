// The discount a line gets: the largest per-mille among the account's discounts in force when the
// charge was raised, for the line's tariff or for all tariffs. Discounts do not add up.

import { contains } from "../../core/time.js";
import { discountValidity } from "./service.js";

export function createDiscountLookup(stores) {
  function permilleFor(accountId, tariffCode, at) {
    let best = 0;
    for (const d of stores.discounts.list((x) => x.accountId === accountId)) {
      if (d.tariffCode !== null && d.tariffCode !== tariffCode) continue;
      if (!contains(discountValidity(d), at)) continue;
      if (d.permille > best) best = d.permille;
    }
    return best;
  }

  /** The discounted amount of a line, unrounded: the line rounds once. */
  const discounted = (amount, permille) => (amount * (1000 - permille)) / 1000;

  return { permilleFor, discounted };
}
