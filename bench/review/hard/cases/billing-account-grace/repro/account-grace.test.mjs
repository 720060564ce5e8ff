import assert from "node:assert/strict";
import { test } from "node:test";
import { createBilling } from "../src/billing/index.js";
import { emptyPorts } from "../src/billing/ports.js";
import { DAY } from "../src/core/time.js";
import { T0, testContext } from "../test/support/context.js";

test("an account on the port's terms is reminded once the port's grace has run", async () => {
  const ctx = testContext();
  const billing = createBilling(ctx, emptyPorts());
  billing.addTariff({ code: "T-WHARF", description: "Wharfage", basis: "value", ratePermille: 3, validFrom: T0 - DAY });
  const account = billing.openAccount({ code: "LUSAG", name: "Lusitania Shipping Agency" });
  billing.raiseCharge({ accountId: account.id, tariffCode: "T-WHARF", usage: { valueMinor: 5_000_000 }, at: T0, source: { kind: "manual", ref: "BL-1" } });
  const posted = await billing.postInvoice((await billing.draftInvoice(account.id)).id);
  const grace = ctx.config.billing.dunningGraceDays;
  ctx.clock.set(posted.dueAt + grace * DAY - 1);
  assert.deepEqual(billing.runDunning(), []);
  ctx.clock.set(posted.dueAt + grace * DAY);
  assert.deepEqual(billing.runDunning(), [{ accountId: account.id, invoiceIds: [posted.id], level: 1 }]);
});
