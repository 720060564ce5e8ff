import assert from "node:assert/strict";
import { test } from "node:test";
import { billingWorld, postOpen, raiseWharfage } from "./fixtures.js";

test("accounts open with a unique code and are found by it", () => {
  const { ctx, billing, account } = billingWorld();
  assert.equal(account.status, "open");
  assert.equal(billing.findAccountByCode("LUSAG").id, account.id);
  assert.equal(billing.findAccountByCode("NOPE"), null);
  assert.equal(billing.findAccount("ACC-404"), null);
  assert.throws(() => billing.getAccount("ACC-404"), /not found/);
  assert.throws(() => billing.openAccount({ code: "LUSAG", name: "Another" }), /taken/);
  assert.throws(() => billing.openAccount({ code: "lu", name: "Bad code" }), /code/);
  assert.throws(() => billing.setPaymentTerms(account.id, 200), /paymentTermsDays/);
  assert.equal(ctx.events.count("billing.account.opened"), 0);
});

test("an account that owes cannot be closed", async () => {
  const { billing, account } = billingWorld();
  raiseWharfage(billing, account.id, [5_000_000]);
  const posted = await postOpen(billing, account.id);
  await assert.rejects(billing.closeAccount(account.id), /still owes 18450/);
  await billing.takePayment({ accountId: account.id, amountMinor: posted.grossMinor, reference: "SWIFT-9" });
  const closed = await billing.closeAccount(account.id);
  assert.equal(closed.status, "closed");
  assert.equal(billing.getAccount(account.id).status, "closed");
});

test("an account holding credit cannot be closed", async () => {
  const { billing, account } = billingWorld();
  await billing.takePayment({ accountId: account.id, amountMinor: 500, reference: "SWIFT-10" });
  await assert.rejects(billing.closeAccount(account.id), /holds 500 in credit/);
});

test("accounts page in id order", () => {
  const { billing } = billingWorld({ paging: { defaultLimit: 2 } });
  billing.openAccount({ code: "TAGUS", name: "Tagus Lines" });
  billing.openAccount({ code: "DOURO", name: "Douro Maritime" });
  const first = billing.listAccounts();
  assert.deepEqual(first.items.map((a) => a.code), ["LUSAG", "TAGUS"]);
  assert.deepEqual(billing.listAccounts({ cursor: first.nextCursor }).items.map((a) => a.code), ["DOURO"]);
});
