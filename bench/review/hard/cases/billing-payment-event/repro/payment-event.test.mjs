import assert from "node:assert/strict";
import { test } from "node:test";
import { createBilling } from "../src/billing/index.js";
import { emptyPorts } from "../src/billing/ports.js";
import { DAY } from "../src/core/time.js";
import { T0, testContext } from "../test/support/context.js";

test("a payment shows in the account's balance right away", async () => {
  const billing = createBilling(testContext(), emptyPorts());
  billing.addTariff({ code: "T-WHARF", description: "Wharfage", basis: "value", ratePermille: 3, validFrom: T0 - DAY });
  const account = billing.openAccount({ code: "LUSAG", name: "Lusitania Shipping Agency" });
  billing.raiseCharge({ accountId: account.id, tariffCode: "T-WHARF", usage: { valueMinor: 5_000_000 }, at: T0, source: { kind: "manual", ref: "BL-1" } });
  const draft = await billing.draftInvoice(account.id);
  const posted = await billing.postInvoice(draft.id);
  assert.equal(billing.balanceOf(account.id).balanceMinor, posted.grossMinor);
  await billing.takePayment({ accountId: account.id, amountMinor: posted.grossMinor, reference: "SWIFT-1" });
  assert.equal(billing.balanceOf(account.id).balanceMinor, 0);
});
