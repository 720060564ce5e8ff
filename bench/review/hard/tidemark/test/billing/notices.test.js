import assert from "node:assert/strict";
import { test } from "node:test";
import { changesAt, tariffNotice } from "../../src/billing/tariffs/notice.js";
import { receiptFor } from "../../src/billing/payments/receipts.js";
import { DAY } from "../../src/core/time.js";
import { billingWorld, postOpen, raiseWharfage, T0 } from "./fixtures.js";

test("a tariff notice lists what changes and by how much", () => {
  const { billing } = billingWorld();
  const at = T0 + 40 * DAY;
  billing.addTariff({ code: "T-MOVE", description: "Container move", basis: "move", rateMinor: 9_000, validFrom: at });
  billing.addTariff({ code: "T-PILOT-N", description: "Pilotage, north", basis: "gt-call", rateMinor: 6, validFrom: at });
  const { registry } = billing.internals;
  assert.deepEqual(changesAt(registry, at).map((c) => [c.code, c.changePermille]), [["T-MOVE", 59], ["T-PILOT-N", null]]);
  const notice = tariffNotice(registry, at, { now: T0, portName: "Port of Alvarim", currency: "EUR" });
  assert.match(notice.text, /T-MOVE {6}Container move: 85,00 EUR per move → 90,00 EUR per move \(\+5\.9%\)/);
  assert.match(notice.text, /T-PILOT-N {3}Pilotage, north: new tariff → 0,06 EUR per GT/);
  assert.throws(() => tariffNotice(registry, at, { now: T0 + 20 * DAY, portName: "x", currency: "EUR" }), /30 days' notice/);
});

test("a receipt adds up to the payment", async () => {
  const { billing, account } = billingWorld();
  raiseWharfage(billing, account.id, [5_000_000]);
  const first = await postOpen(billing, account.id);
  raiseWharfage(billing, account.id, [10_000_000]);
  await postOpen(billing, account.id);
  const payment = await billing.takePayment({ accountId: account.id, amountMinor: 60_000, reference: "SWIFT-300" });
  const receipt = receiptFor(payment, { invoices: { getInvoice: billing.getInvoice }, account, portName: "Port of Alvarim", currency: "EUR" });
  assert.deepEqual(receipt.rows.map((r) => [r.number, r.amountMinor, r.settled]), [[first.number, 18_450, true], ["PTALV-2026-000002", 36_900, true]]);
  assert.equal(receipt.allocatedMinor + receipt.onAccountMinor, payment.amountMinor);
  assert.match(receipt.text, /On account\s+46,50 EUR/);
});
