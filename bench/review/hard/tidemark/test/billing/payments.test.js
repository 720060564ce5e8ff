import assert from "node:assert/strict";
import { test } from "node:test";
import { allocateOldestFirst } from "../../src/billing/payments/allocation.js";
import { bankAmountToMinor, parseBankStatement } from "../../src/billing/payments/import.js";
import { billingWorld, postOpen, raiseWharfage, T0 } from "./fixtures.js";

const inv = (id, grossMinor, paidMinor = 0) => ({ id, grossMinor, paidMinor, creditedMinor: 0 });

test("allocation fills the oldest invoice first", () => {
  const result = allocateOldestFirst(10_000, [inv("INV-1", 4_000, 1_000), inv("INV-2", 5_000), inv("INV-3", 9_000)]);
  assert.deepEqual(result, {
    allocations: [
      { invoiceId: "INV-1", amountMinor: 3_000 },
      { invoiceId: "INV-2", amountMinor: 5_000 },
      { invoiceId: "INV-3", amountMinor: 2_000 },
    ],
    unallocatedMinor: 0,
  });
  assert.deepEqual(allocateOldestFirst(500, []), { allocations: [], unallocatedMinor: 500 });
});

test("a payment settles invoices oldest first and keeps the rest as credit", async () => {
  const { billing, account } = billingWorld();
  raiseWharfage(billing, account.id, [5_000_000]);
  const first = await postOpen(billing, account.id); // 18 450 gross
  raiseWharfage(billing, account.id, [10_000_000]);
  const second = await postOpen(billing, account.id); // 36 900 gross
  const payment = await billing.takePayment({ accountId: account.id, amountMinor: 60_000, reference: "SWIFT-88213" });
  assert.deepEqual(payment.allocations, [
    { invoiceId: first.id, amountMinor: 18_450 },
    { invoiceId: second.id, amountMinor: 36_900 },
  ]);
  assert.equal(payment.unallocatedMinor, 4_650);
  assert.equal(billing.getInvoice(first.id).status, "paid");
  assert.equal(billing.getInvoice(second.id).status, "paid");
  assert.deepEqual(billing.openInvoices(account.id), []);
});

test("a bank reference is taken once", async () => {
  const { billing, account } = billingWorld();
  await billing.takePayment({ accountId: account.id, amountMinor: 100, reference: "SWIFT-1" });
  await assert.rejects(billing.takePayment({ accountId: account.id, amountMinor: 100, reference: "SWIFT-1" }), /already taken/);
  await assert.rejects(billing.takePayment({ accountId: account.id, amountMinor: 0, reference: "SWIFT-2" }), /positive/);
  await assert.rejects(billing.takePayment({ accountId: "ACC-404", amountMinor: 100, reference: "SWIFT-3" }), /not found/);
});

test("payments on two accounts do not wait for each other", async () => {
  const { billing, account } = billingWorld();
  const other = billing.openAccount({ code: "TAGUS", name: "Tagus Lines" });
  const [a, b] = await Promise.all([
    billing.takePayment({ accountId: account.id, amountMinor: 100, reference: "A" }),
    billing.takePayment({ accountId: other.id, amountMinor: 200, reference: "B" }),
  ]);
  assert.equal(a.accountId, account.id);
  assert.equal(b.unallocatedMinor, 200);
});

test("bank statements come in euros and become minor units", () => {
  assert.equal(bankAmountToMinor("1.234,50"), 123_450);
  assert.equal(bankAmountToMinor("1234.5"), 123_450);
  assert.throws(() => bankAmountToMinor("12,345"), /not an amount/);
  const rows = parseBankStatement("# value;amount;ref;payer\n2026-03-02T00:00:00Z;184,50;PTALV-2026-000001;LUSAG\n");
  assert.deepEqual(rows, [{ lineNo: 2, receivedAt: T0, amountMinor: 18_450, reference: "PTALV-2026-000001", payer: "LUSAG" }]);
});
