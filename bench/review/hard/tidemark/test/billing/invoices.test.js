import assert from "node:assert/strict";
import { test } from "node:test";
import { DAY } from "../../src/core/time.js";
import { billingWorld, postOpen, raiseWharfage, sampleCall, T0 } from "./fixtures.js";

test("lines are rounded once each and the totals are their sums", async () => {
  const { ports, billing, account } = billingWorld();
  ports.addCall(sampleCall(account.id));
  billing.chargeCall("CALL-000001");
  const draft = await billing.draftInvoice(account.id);
  assert.deepEqual(
    draft.lines.map((l) => [l.tariffCode, l.netMinor, l.vatMinor]),
    [["T-DUES", 1_057_500, 243_225], ["T-BERTH", 48_000, 11_040]],
  );
  assert.equal(draft.netMinor, 1_105_500);
  assert.equal(draft.vatMinor, 254_265);
  assert.equal(draft.grossMinor, 1_359_765);
  assert.equal(draft.status, "draft");
  assert.equal(draft.number, null);
});

test("VAT is per line, half to even, at the configured rate", async () => {
  const { billing, account } = billingWorld({ billing: { vatRatePermille: 60, minimumChargeMinor: 0 } });
  // 3 ‰ of 1 750 000 = 5 250; 60 ‰ of that = 315
  raiseWharfage(billing, account.id, [1_750_000, 1_750_000]);
  const draft = await billing.draftInvoice(account.id);
  assert.deepEqual(draft.lines.map((l) => l.vatMinor), [315, 315]);
  assert.equal(draft.vatMinor, 630);
});

test("a small invoice is topped up to the minimum", async () => {
  const { billing, account } = billingWorld();
  raiseWharfage(billing, account.id, [200_000]); // 600 net
  const draft = await billing.draftInvoice(account.id);
  const topUp = draft.lines.at(-1);
  assert.equal(topUp.tariffCode, "T-MINIMUM");
  assert.equal(topUp.netMinor, 1_900);
  assert.equal(draft.netMinor, 2_500);
  assert.equal(draft.vatMinor, 138 + 437);
});

test("posting numbers the invoice, dates it and bills its charges", async () => {
  const { ctx, ports, billing, account } = billingWorld();
  ports.addCall(sampleCall(account.id));
  billing.chargeCall("CALL-000001");
  ctx.clock.set(T0 + 3 * DAY);
  const posted = await postOpen(billing, account.id);
  assert.equal(posted.number, "PTALV-2026-000001");
  assert.equal(posted.issuedAt, T0 + 3 * DAY);
  assert.equal(posted.dueAt, T0 + 33 * DAY);
  assert.deepEqual(billing.openCharges(account.id), []);
  await assert.rejects(billing.postInvoice(posted.id), /is posted/);
});

test("an account's own terms set the due date", async () => {
  const { billing, account } = billingWorld();
  billing.setPaymentTerms(account.id, 45);
  raiseWharfage(billing, account.id, [5_000_000]);
  const posted = await postOpen(billing, account.id);
  assert.equal(posted.dueAt, T0 + 45 * DAY);
});

test("two drafts never take the same charge", async () => {
  const { billing, account } = billingWorld();
  raiseWharfage(billing, account.id, [5_000_000]);
  await billing.draftInvoice(account.id);
  await assert.rejects(billing.draftInvoice(account.id), /no open charges/);
});

test("voiding a posted invoice gives its charges back", async () => {
  const { billing, account } = billingWorld();
  raiseWharfage(billing, account.id, [5_000_000]);
  const posted = await postOpen(billing, account.id);
  const voided = await billing.voidInvoice(posted.id, "wrong agent");
  assert.equal(voided.status, "void");
  assert.equal(billing.openCharges(account.id).length, 1);
  await assert.rejects(billing.voidInvoice(posted.id, "again"), /is void/);
});

test("a closed account is not invoiced", async () => {
  const { billing, account } = billingWorld();
  raiseWharfage(billing, account.id, [5_000_000]);
  const draft = await billing.draftInvoice(account.id);
  await billing.voidInvoice(draft.id, "closing");
  await billing.closeAccount(account.id);
  const again = await billing.draftInvoice(account.id);
  await assert.rejects(billing.postInvoice(again.id), /is closed/);
});
