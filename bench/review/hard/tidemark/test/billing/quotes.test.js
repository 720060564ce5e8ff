import assert from "node:assert/strict";
import { test } from "node:test";
import { createQuotes } from "../../src/billing/quotes/proforma.js";
import { createLineBuilder } from "../../src/billing/invoices/lines.js";
import { createDiscountLookup } from "../../src/billing/discounts/apply.js";
import { DAY, HOUR } from "../../src/core/time.js";
import { billingWorld, T0 } from "./fixtures.js";

const request = { vessel: "MSC Alvarim Leonor", grossTonnage: 23_500, lengthCm: 19_940, arrivalAt: T0 + 6 * HOUR, departureAt: T0 + 2 * DAY + 2 * HOUR, moves: 120, reeferDays: 10 };

test("a quote prices a planned call as the invoice will", async () => {
  const { ports, billing, account } = billingWorld();
  const quote = billing.quoteCall(account.id, request);
  assert.deepEqual(quote.lines.map((l) => [l.tariffCode, l.quantity, l.netMinor]), [
    ["T-DUES", 23_500, 1_057_500],
    ["T-BERTH", 400, 48_000],
    ["T-MOVE", 120, 1_020_000],
    ["T-REEFER", 10, 32_000],
  ]);
  assert.equal(quote.netMinor, 2_157_500);
  assert.equal(quote.grossMinor, quote.netMinor + quote.vatMinor);
  assert.deepEqual(quote.missing, []);
  ports.addCall({ id: "CALL-000009", accountId: account.id, grossTonnage: 23_500, lengthCm: 19_940, berthedAt: request.arrivalAt, departedAt: request.departureAt });
  billing.chargeCall("CALL-000009");
  const draft = await billing.draftInvoice(account.id);
  assert.deepEqual(draft.lines.slice(0, 2), quote.lines.slice(0, 2).map((l, i) => ({ ...l, chargeId: draft.lines[i].chargeId })));
});

test("a tariff not yet in force is reported missing, and a quote expires", () => {
  const { ctx, billing, account } = billingWorld();
  billing.addTariff({ code: "T-PILOT", description: "Pilotage", basis: "gt-call", rateMinor: 5, validFrom: T0 + 100 * DAY });
  const { stores, ids, registry } = billing.internals;
  const quotes = createQuotes(ctx, stores, {
    ids,
    accounts: { getAccount: billing.getAccount },
    tariffs: { effectiveTariff: (code, at) => (code === "T-MOVE" ? null : registry.effectiveTariff(code, at)) },
    lines: createLineBuilder(ctx, { registry, discounts: createDiscountLookup(stores) }),
  });
  const quote = quotes.quoteCall(account.id, { ...request, moves: 0, reeferDays: 0 });
  assert.deepEqual(quote.missing, ["T-MOVE"]);
  assert.equal(quotes.isValid(quote), true);
  assert.equal(quotes.isValid(quote, T0 + 14 * DAY), false);
  assert.throws(() => quotes.quoteCall(account.id, { ...request, lengthCm: 0 }), /lengthCm/);
});
