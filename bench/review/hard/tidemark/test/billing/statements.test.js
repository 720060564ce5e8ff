import assert from "node:assert/strict";
import { test } from "node:test";
import { formatStatement, statementCsv } from "../../src/billing/statements/format.js";
import { monthOf, monthPeriod, parsePeriod, periodLabel, previousMonth } from "../../src/billing/statements/period.js";
import { DAY } from "../../src/core/time.js";
import { billingWorld, postOpen, raiseWharfage, T0 } from "./fixtures.js";

test("months are half-open", () => {
  const march = monthPeriod(2026, 3);
  assert.equal(march.start, Date.parse("2026-03-01T00:00:00Z"));
  assert.equal(march.end, Date.parse("2026-04-01T00:00:00Z"));
  assert.deepEqual(monthOf(march.end), monthPeriod(2026, 4));
  assert.deepEqual(previousMonth(march), monthPeriod(2026, 2));
  assert.deepEqual(previousMonth(monthPeriod(2026, 1)), monthPeriod(2025, 12));
  assert.equal(periodLabel(parsePeriod("2026-03")), "2026-03");
  assert.throws(() => parsePeriod("2026-13"), /not a month/);
});

async function marchAndApril() {
  const world = billingWorld();
  const { ctx, billing, account } = world;
  raiseWharfage(billing, account.id, [5_000_000]);
  await postOpen(billing, account.id); // 2 March, 18 450
  ctx.clock.set(T0 + 10 * DAY);
  await billing.takePayment({ accountId: account.id, amountMinor: 10_000, reference: "SWIFT-1" });
  ctx.clock.set(Date.parse("2026-04-01T00:00:00Z"));
  raiseWharfage(billing, account.id, [10_000_000], ctx.clock.now());
  await postOpen(billing, account.id); // 1 April, 36 900
  return world;
}

test("a statement brings the balance forward and runs it through the month", async () => {
  const { billing, account } = await marchAndApril();
  const march = billing.statementFor(account.id, monthPeriod(2026, 3));
  assert.equal(march.openingMinor, 0);
  assert.deepEqual(march.entries.map((e) => [e.kind, e.amountMinor, e.balanceMinor]), [["invoice", 18_450, 18_450], ["payment", -10_000, 8_450]]);
  const april = billing.statementFor(account.id, monthPeriod(2026, 4));
  assert.equal(april.openingMinor, 8_450);
  assert.deepEqual(april.entries.map((e) => e.ref), ["PTALV-2026-000002"]);
  assert.equal(april.closingMinor, 45_350);
});

test("the printed statement and its CSV", async () => {
  const { billing, account } = await marchAndApril();
  const march = billing.statementFor(account.id, monthPeriod(2026, 3));
  const text = formatStatement(march, { portName: "Port of Alvarim", currency: "EUR" });
  assert.match(text, /statement 2026-03/);
  assert.match(text, /2026-03-12 {2}payment SWIFT-1/);
  assert.match(text, /Carried forward\s+84,50 EUR/);
  assert.equal(statementCsv(march).split("\n")[2], "2026-03-12;payment;SWIFT-1;-10000;8450");
});
