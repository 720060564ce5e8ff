import assert from "node:assert/strict";
import { test } from "node:test";
import { createBilling } from "../../src/billing/index.js";
import { emptyPorts } from "../../src/billing/ports.js";
import { DAY } from "../../src/core/time.js";
import { T0, testContext } from "../support/context.js";

function world() {
  const ctx = testContext();
  return { ctx, billing: createBilling(ctx, emptyPorts()) };
}

const berth = (over = {}) => ({ code: "T-BERTH", description: "Berthage", basis: "metre-day", rateMinor: 120, validFrom: T0, ...over });

test("a new version closes the open one at its own start", () => {
  const { billing } = world();
  const v1 = billing.addTariff(berth());
  const v2 = billing.addTariff(berth({ rateMinor: 130, validFrom: T0 + 30 * DAY }));
  assert.equal(billing.effectiveTariff("T-BERTH", T0 + 30 * DAY - 1).id, v1.id);
  assert.equal(billing.effectiveTariff("T-BERTH", T0 + 30 * DAY).id, v2.id);
  assert.equal(billing.internals.stores.tariffs.get(v1.id).validTo, T0 + 30 * DAY);
});

test("validity is half-open and nothing is in force before the first version", () => {
  const { billing } = world();
  billing.addTariff(berth({ validTo: T0 + DAY }));
  assert.equal(billing.effectiveTariff("T-BERTH", T0 - 1), null);
  assert.ok(billing.effectiveTariff("T-BERTH", T0));
  assert.equal(billing.effectiveTariff("T-BERTH", T0 + DAY), null);
});

test("overlapping closed versions are refused", () => {
  const { billing } = world();
  billing.addTariff(berth({ validTo: T0 + 10 * DAY }));
  assert.throws(() => billing.addTariff(berth({ validFrom: T0 + 5 * DAY, validTo: T0 + 20 * DAY })), /overlaps/);
});

test("tariff records are validated", () => {
  const { billing } = world();
  assert.throws(() => billing.addTariff(berth({ code: "BERTH" })), /code/);
  assert.throws(() => billing.addTariff(berth({ basis: "per-hour" })), /basis/);
  assert.throws(() => billing.addTariff(berth({ rateMinor: 1.5 })), /whole minor units/);
  assert.throws(() => billing.addTariff({ code: "T-WHARF", description: "w", basis: "value", rateMinor: 3, validFrom: T0 }), /ratePermille/);
});

test("the cached lookup forgets on a tariff change", () => {
  const { billing } = world();
  billing.addTariff(berth());
  assert.equal(billing.effectiveTariff("T-BERTH", T0 + DAY).rateMinor, 120);
  billing.addTariff(berth({ rateMinor: 150, validFrom: T0 + DAY }));
  assert.equal(billing.effectiveTariff("T-BERTH", T0 + DAY).rateMinor, 150);
  assert.equal(billing.effectiveTariff("T-BERTH", T0 + DAY - 1).rateMinor, 120);
});

test("the tariff sheet lists the version in force per code", () => {
  const { billing } = world();
  billing.addTariff(berth());
  billing.addTariff({ code: "T-DUES", description: "Port dues", basis: "gt-call", rateMinor: 45, validFrom: T0 + DAY });
  assert.deepEqual(billing.tariffSheet(T0).map((t) => t.code), ["T-BERTH"]);
  assert.deepEqual(billing.tariffSheet(T0 + DAY).map((t) => t.code), ["T-BERTH", "T-DUES"]);
});
