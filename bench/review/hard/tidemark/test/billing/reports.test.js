import assert from "node:assert/strict";
import { test } from "node:test";
import { bucketOf, daysPastDue } from "../../src/billing/reports/aging.js";
import { DAY } from "../../src/core/time.js";
import { billingWorld, postOpen, raiseWharfage, sampleCall, T0 } from "./fixtures.js";

test("buckets are half-open ranges of days past due", () => {
  assert.equal(bucketOf(-3), "current");
  assert.equal(bucketOf(0), "current");
  assert.equal(bucketOf(1), "d1to30");
  assert.equal(bucketOf(30), "d1to30");
  assert.equal(bucketOf(31), "d31to60");
  assert.equal(bucketOf(91), "over90");
  assert.equal(daysPastDue({ dueAt: T0 }, T0 + 1), 1);
});

test("the aging report splits each account's debt by age", async () => {
  const { ctx, billing, account } = billingWorld();
  const other = billing.openAccount({ code: "TAGUS", name: "Tagus Lines" });
  raiseWharfage(billing, account.id, [5_000_000]);
  await postOpen(billing, account.id); // due T0 + 30 days
  ctx.clock.set(T0 + 40 * DAY);
  raiseWharfage(billing, account.id, [10_000_000], ctx.clock.now());
  await postOpen(billing, account.id); // due T0 + 70 days
  raiseWharfage(billing, other.id, [5_000_000], ctx.clock.now());
  await postOpen(billing, other.id);
  const report = billing.agingAt(T0 + 75 * DAY);
  assert.deepEqual(report.rows.map((r) => [r.accountId, r.d31to60, r.d1to30, r.current, r.totalMinor]), [
    [account.id, 18_450, 36_900, 0, 55_350],
    [other.id, 0, 18_450, 0, 18_450],
  ]);
  assert.equal(report.total.totalMinor, 73_800);
});

test("revenue per tariff is net of credit notes", async () => {
  const { ports, billing, account } = billingWorld();
  ports.addCall(sampleCall(account.id));
  billing.chargeCall("CALL-000001");
  raiseWharfage(billing, account.id, [5_000_000]);
  const posted = await postOpen(billing, account.id);
  await billing.issueCreditNote(posted.id, { lines: [1], reason: "berth not used the second day" });
  const revenue = billing.revenueIn({ start: T0, end: T0 + 31 * DAY });
  assert.deepEqual(revenue.rows.map((r) => [r.tariffCode, r.netMinor]), [["T-BERTH", 0], ["T-DUES", 1_057_500], ["T-WHARF", 15_000]]);
  assert.equal(revenue.netMinor, 1_072_500);
});
