// Proforma quotes for a planned call: the agent gives the vessel's tonnage and length, the planned
// stay and the expected cargo; the quote prices them with the tariffs in force at the planned
// arrival, exactly as the invoice will (same lines, same discounts, same minimum).

import { ValidationError } from "../../core/errors.js";
import { contains, DAY, interval } from "../../core/time.js";
import { CALL_TARIFFS } from "../charges/fromEvents.js";
import { withMinimum } from "../invoices/minimum.js";
import { totalsOf } from "../records/invoice.js";
import { quantityFor } from "../tariffs/basis.js";

export const QUOTE_VALID_DAYS = 14;

function usageOf(request) {
  for (const field of ["grossTonnage", "lengthCm", "arrivalAt", "departureAt"]) {
    if (!Number.isInteger(request[field]) || request[field] <= 0) throw new ValidationError(field, "must be a positive whole number");
  }
  return {
    grossTonnage: request.grossTonnage,
    lengthCm: request.lengthCm,
    stay: interval(request.arrivalAt, request.departureAt),
    moves: request.moves ?? 0,
    reeferDays: request.reeferDays ?? 0,
  };
}

export function createQuotes(ctx, stores, { ids, accounts, tariffs, lines }) {
  function quoteCall(accountId, request) {
    const account = accounts.getAccount(accountId);
    const usage = usageOf(request);
    const at = request.arrivalAt;
    const quoted = [];
    const missing = [];
    for (const tariffCode of CALL_TARIFFS) {
      const tariff = tariffs.effectiveTariff(tariffCode, at);
      if (!tariff) {
        missing.push(tariffCode);
        continue;
      }
      const quantity = quantityFor(tariff.basis, usage);
      if (quantity > 0) quoted.push(lines.lineFor({ tariffId: tariff.id, tariffCode, quantity, at }, account));
    }
    const all = withMinimum(quoted, ctx.config, account);
    const createdAt = ctx.clock.now();
    return stores.quotes.insert({
      id: ids.quote.next(),
      accountId,
      vessel: request.vessel ?? null,
      lines: all,
      ...totalsOf(all),
      missing,
      createdAt,
      validUntil: createdAt + QUOTE_VALID_DAYS * DAY,
    });
  }

  /** A quote still good at `at` (half-open: not on its validUntil). */
  const isValid = (quote, at = ctx.clock.now()) => contains({ start: quote.createdAt, end: quote.validUntil }, at);

  const getQuote = (id) => stores.quotes.get(id);

  return { quoteCall, getQuote, isValid };
}
