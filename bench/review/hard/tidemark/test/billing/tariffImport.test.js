import assert from "node:assert/strict";
import { test } from "node:test";
import { createBilling } from "../../src/billing/index.js";
import { emptyPorts } from "../../src/billing/ports.js";
import { eurosToMinor, importTariffBook, parseTariffBook } from "../../src/billing/tariffs/import.js";
import { createTariffRegistry } from "../../src/billing/tariffs/registry.js";
import { createBillingIds, createBillingStores } from "../../src/billing/stores.js";
import { testContext } from "../support/context.js";

test("euros become minor units at the edge", () => {
  assert.equal(eurosToMinor("12,50"), 1_250);
  assert.equal(eurosToMinor("1 234,5"), 123_450);
  assert.equal(eurosToMinor("0.45"), 45);
  assert.throws(() => eurosToMinor("1,234"), /not an amount/);
  assert.throws(() => eurosToMinor("-3"), /not an amount/);
});

const BOOK = `# Alvarim tariff book 2026
T-DUES;gt-call;0,45;2026-01-01T00:00:00Z
T-BERTH;metre-day;1,20;2026-01-01T00:00:00Z

T-WHARF;value;3;2026-01-01T00:00:00Z;2027-01-01T00:00:00Z
`;

test("the book parses line by line, skipping comments", () => {
  const rows = parseTariffBook(BOOK);
  assert.deepEqual(rows.map((r) => [r.code, r.rateMinor ?? r.ratePermille]), [["T-DUES", 45], ["T-BERTH", 120], ["T-WHARF", 3]]);
  assert.equal(rows[2].validTo, Date.parse("2027-01-01T00:00:00Z"));
});

test("errors name the line", () => {
  assert.throws(() => parseTariffBook("T-DUES;gt-call;0,45;2026-01-01T00:00:00Z\nT-BERTH;metre-day;x;2026-01-01T00:00:00Z"), /line 2 rate/);
  assert.throws(() => parseTariffBook("T-WHARF;value;2,5;2026-01-01T00:00:00Z"), /per-mille must be whole/);
});

test("an imported book is in force and named", () => {
  const ctx = testContext();
  const registry = createTariffRegistry(ctx, createBillingStores(), createBillingIds());
  const rows = importTariffBook(registry, BOOK, { "T-DUES": "Port dues" });
  assert.equal(rows.length, 3);
  assert.equal(registry.effectiveTariff("T-DUES", Date.parse("2026-03-01T00:00:00Z")).description, "Port dues");
  assert.ok(createBilling(ctx, emptyPorts()));
});
