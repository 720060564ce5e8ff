import assert from "node:assert/strict";
import { test } from "node:test";
import { billingWorld, postOpen, raiseWharfage } from "./fixtures.js";

test("the balance is what is owed less credit held", async () => {
  const { billing, account } = billingWorld();
  assert.deepEqual(billing.balanceOf(account.id), { accountId: account.id, outstandingMinor: 0, creditMinor: 0, balanceMinor: 0 });
  raiseWharfage(billing, account.id, [5_000_000]);
  await postOpen(billing, account.id);
  assert.equal(billing.balanceOf(account.id).balanceMinor, 18_450);
});

test("a cached balance is dropped when an invoice is posted or credited", async () => {
  const { billing, account } = billingWorld();
  raiseWharfage(billing, account.id, [5_000_000]);
  const first = await postOpen(billing, account.id);
  assert.equal(billing.balanceOf(account.id).outstandingMinor, 18_450);
  raiseWharfage(billing, account.id, [10_000_000]);
  await postOpen(billing, account.id);
  assert.equal(billing.balanceOf(account.id).outstandingMinor, 55_350);
  await billing.issueCreditNote(first.id, { lines: [0], reason: "duplicate" });
  assert.equal(billing.balanceOf(account.id).outstandingMinor, 36_900);
});

test("debtors are listed largest first", async () => {
  const { billing, account } = billingWorld();
  const other = billing.openAccount({ code: "TAGUS", name: "Tagus Lines" });
  raiseWharfage(billing, account.id, [5_000_000]);
  raiseWharfage(billing, other.id, [10_000_000]);
  await postOpen(billing, account.id);
  await postOpen(billing, other.id);
  assert.deepEqual(billing.debtors().map((d) => [d.accountId, d.balanceMinor]), [[other.id, 36_900], [account.id, 18_450]]);
});

test("stop() releases the cache's subscriptions", () => {
  const { ctx, billing } = billingWorld();
  assert.ok(ctx.events.count("billing.invoice.posted") > 0);
  billing.stop();
  assert.equal(ctx.events.count("billing.invoice.posted"), 0);
  assert.equal(ctx.events.count("billing.payment.taken"), 0);
});
