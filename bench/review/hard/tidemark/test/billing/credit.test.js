import assert from "node:assert/strict";
import { test } from "node:test";
import { billingWorld, postOpen, raiseWharfage } from "./fixtures.js";

test("a credit note takes its lines off what the invoice owes", async () => {
  const { billing, account } = billingWorld();
  raiseWharfage(billing, account.id, [5_000_000, 10_000_000]);
  const posted = await postOpen(billing, account.id); // lines 18 450 + 36 900 gross
  const note = await billing.issueCreditNote(posted.id, { lines: [1], reason: "declared value corrected" });
  assert.deepEqual(note.lines.map((l) => [l.netMinor, l.vatMinor]), [[-30_000, -6_900]]);
  assert.equal(note.grossMinor, -36_900);
  assert.equal(note.appliedMinor, 36_900);
  assert.equal(note.unappliedMinor, 0);
  assert.equal(billing.getInvoice(posted.id).creditedMinor, 36_900);
  await assert.rejects(billing.issueCreditNote(posted.id, { lines: [1], reason: "again" }), /already credited/);
});

test("crediting a paid invoice leaves credit, which the next invoice can take", async () => {
  const { billing, account } = billingWorld();
  raiseWharfage(billing, account.id, [5_000_000]);
  const first = await postOpen(billing, account.id); // 18 450
  raiseWharfage(billing, account.id, [10_000_000]);
  const second = await postOpen(billing, account.id); // 36 900
  await billing.takePayment({ accountId: account.id, amountMinor: 18_450, reference: "SWIFT-1" });
  const note = await billing.issueCreditNote(first.id, { lines: [0], reason: "wrong vessel" });
  assert.equal(note.appliedMinor, 0);
  assert.equal(note.unappliedMinor, 18_450);
  assert.equal(await billing.applyCredit(account.id), 18_450);
  assert.equal(billing.getInvoice(second.id).creditedMinor, 18_450);
  assert.equal(await billing.applyCredit(account.id), 0);
});

test("credit notes refuse drafts, unknown lines and a missing reason", async () => {
  const { billing, account } = billingWorld();
  raiseWharfage(billing, account.id, [5_000_000]);
  const draft = await billing.draftInvoice(account.id);
  await assert.rejects(billing.issueCreditNote(draft.id, { lines: [0], reason: "x" }), /is draft/);
  const posted = await billing.postInvoice(draft.id);
  await assert.rejects(billing.issueCreditNote(posted.id, { lines: [3], reason: "x" }), /no line 3/);
  await assert.rejects(billing.issueCreditNote(posted.id, { lines: [0], reason: " " }), /reason/);
});
