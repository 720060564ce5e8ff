import assert from "node:assert/strict";
import { test } from "node:test";
import { billingWorld, postOpen, raiseWharfage } from "./fixtures.js";

async function withInvoices(n, config) {
  const world = billingWorld(config);
  const { billing, account } = world;
  for (let i = 0; i < n; i++) {
    raiseWharfage(billing, account.id, [1_000_000 + i]);
    if (i % 3 === 2) await billing.draftInvoice(account.id);
    else await postOpen(billing, account.id);
  }
  return world;
}

test("pages follow id order and end with a null cursor", async () => {
  const { billing } = await withInvoices(5, { paging: { defaultLimit: 2 } });
  const seen = [];
  let cursor;
  do {
    const page = billing.listInvoices({ cursor });
    seen.push(...page.items.map((i) => i.id));
    cursor = page.nextCursor;
  } while (cursor);
  assert.deepEqual(seen, ["INV-000001", "INV-000002", "INV-000003", "INV-000004", "INV-000005"]);
});

test("filters by status and account", async () => {
  const { billing, account } = await withInvoices(6);
  assert.deepEqual(billing.listInvoices({ status: "draft" }).items.map((i) => i.id), ["INV-000003", "INV-000006"]);
  assert.equal(billing.listInvoices({ accountId: account.id, status: "posted" }).items.length, 4);
  assert.equal(billing.listInvoices({ accountId: "ACC-999999" }).items.length, 0);
  assert.throws(() => billing.listInvoices({ status: "open" }), /status/);
});

test("the limit is capped by paging.maxLimit", async () => {
  const { billing } = await withInvoices(4, { paging: { maxLimit: 3 } });
  const page = billing.listInvoices({ limit: 100 });
  assert.equal(page.items.length, 3);
  assert.equal(page.nextCursor, "INV-000003");
});
