import assert from "node:assert/strict";
import { test } from "node:test";
import { createBilling } from "../src/billing/index.js";
import { emptyPorts } from "../src/billing/ports.js";
import { DAY } from "../src/core/time.js";
import { T0, testContext } from "../test/support/context.js";

async function within(promise, ms) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

test("an invoice posts for an account that holds credit", async () => {
  const billing = createBilling(testContext(), emptyPorts());
  billing.addTariff({ code: "T-WHARF", description: "Wharfage", basis: "value", ratePermille: 3, validFrom: T0 - DAY });
  const account = billing.openAccount({ code: "LUSAG", name: "Lusitania Shipping Agency" });
  await billing.takePayment({ accountId: account.id, amountMinor: 10_000, reference: "SWIFT-1" });
  billing.raiseCharge({ accountId: account.id, tariffCode: "T-WHARF", usage: { valueMinor: 5_000_000 }, at: T0, source: { kind: "manual", ref: "BL-1" } });
  const draft = await billing.draftInvoice(account.id);
  const posted = await within(billing.postInvoice(draft.id), 300);
  assert.equal(posted.id, draft.id);
  // the account's lock is free again: another payment goes through
  const payment = await within(billing.takePayment({ accountId: account.id, amountMinor: 100, reference: "SWIFT-2" }), 300);
  assert.equal(payment.accountId, account.id);
});
