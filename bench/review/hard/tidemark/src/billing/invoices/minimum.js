// The port's minimum invoice: an invoice whose lines come to less than billing.minimumChargeMinor
// (net) gets a top-up line for the difference. The top-up is a line like any other: rounded once
// (it is whole already) and taxed on its own net.

import { permilleOf, sumMinor } from "../../core/money.js";

export const MINIMUM_CODE = "T-MINIMUM";

export function topUpFor(lines, config) {
  if (lines.length === 0) return 0;
  const net = sumMinor(lines.map((l) => l.netMinor));
  const minimum = config.billing.minimumChargeMinor;
  return net < minimum ? minimum - net : 0;
}

/** The lines with the top-up appended when one is due; a new array, the input is left alone. */
export function withMinimum(lines, config, account) {
  const topUp = topUpFor(lines, config);
  if (topUp === 0) return [...lines];
  return [
    ...lines,
    {
      chargeId: null,
      tariffCode: MINIMUM_CODE,
      description: "Minimum charge top-up",
      quantity: 1,
      discountPermille: 0,
      netMinor: topUp,
      vatMinor: account.vatExempt ? 0 : permilleOf(topUp, config.billing.vatRatePermille),
    },
  ];
}

export const isTopUp = (line) => line.tariffCode === MINIMUM_CODE;
