// Invoice lines from charges. Each line is rounded once, here: the tariff amount less the
// account's discount becomes netMinor (half to even), and VAT is the config's per-mille of that
// rounded net. Nothing upstream rounds a line's amount and nothing downstream rounds a total.

import { permilleOf, roundMinor } from "../../core/money.js";
import { quantityLabel } from "../tariffs/basis.js";
import { amountOf } from "../tariffs/price.js";

export function createLineBuilder(ctx, { registry, discounts }) {
  const vatRate = () => ctx.config.billing.vatRatePermille;

  /** A line for a charge, or for a quoted charge ({ tariffId, tariffCode, quantity, at }, no id). */
  function lineFor(charge, account) {
    const tariff = registry.getVersion(charge.tariffId);
    const discountPermille = discounts.permilleFor(account.id, charge.tariffCode, charge.at);
    const netMinor = roundMinor(discounts.discounted(amountOf(tariff, charge.quantity), discountPermille));
    const vatMinor = account.vatExempt ? 0 : permilleOf(netMinor, vatRate());
    return {
      chargeId: charge.id ?? null,
      tariffCode: charge.tariffCode,
      description: `${tariff.description}, ${quantityLabel(tariff.basis, charge.quantity)}`,
      quantity: charge.quantity,
      discountPermille,
      netMinor,
      vatMinor,
    };
  }

  const linesFor = (charges, account) => charges.map((c) => lineFor(c, account));

  return { lineFor, linesFor };
}
