import assert from "node:assert/strict";
import { test } from "node:test";
import { DAY } from "../../src/core/time.js";
import { billingWorld, postOpen, raiseWharfage, sampleCall, T0 } from "./fixtures.js";

test("a line takes the largest discount in force when its charge was raised", async () => {
  const { ports, billing, account } = billingWorld();
  billing.addDiscount({ accountId: account.id, permille: 50, validFrom: T0 - DAY });
  billing.addDiscount({ accountId: account.id, tariffCode: "T-BERTH", permille: 125, validFrom: T0 - DAY, validTo: T0 + DAY });
  ports.addCall(sampleCall(account.id));
  billing.chargeCall("CALL-000001");
  const draft = await billing.draftInvoice(account.id);
  assert.deepEqual(draft.lines.map((l) => [l.tariffCode, l.discountPermille, l.netMinor]), [
    ["T-DUES", 50, 1_004_625],
    ["T-BERTH", 125, 42_000],
  ]);
});

test("a discounted line is rounded once, half to even", async () => {
  const { billing, account } = billingWorld({ billing: { minimumChargeMinor: 0 } });
  billing.addDiscount({ accountId: account.id, tariffCode: "T-WHARF", permille: 100, validFrom: T0 - DAY });
  raiseWharfage(billing, account.id, [5_000_000, 2_500_000, 8_350_000]);
  const posted = await postOpen(billing, account.id);
  // 15 000 × 0.9 = 13 500; 7 500 × 0.9 = 6 750; 25 050 × 0.9 = 22 545
  assert.deepEqual(posted.lines.map((l) => l.netMinor), [13_500, 6_750, 22_545]);
  assert.equal(posted.netMinor, 42_795);
});

test("two discounts on the same tariff may not overlap; an ended one no longer applies", async () => {
  const { billing, account } = billingWorld();
  const d = billing.addDiscount({ accountId: account.id, permille: 50, validFrom: T0 - 10 * DAY });
  assert.throws(() => billing.addDiscount({ accountId: account.id, permille: 80, validFrom: T0 }), /already covers/);
  billing.endDiscount(d.id, T0);
  raiseWharfage(billing, account.id, [5_000_000]);
  const posted = await postOpen(billing, account.id);
  assert.equal(posted.lines[0].discountPermille, 0);
  assert.throws(() => billing.addDiscount({ accountId: account.id, permille: 600, validFrom: T0 }), /permille/);
});
