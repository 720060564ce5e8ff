import assert from "node:assert/strict";
import { test } from "node:test";
import { chargeableMetres, quantityFor, quantityLabel } from "../../src/billing/tariffs/basis.js";
import { amountOf, rateChangePermille, rateText } from "../../src/billing/tariffs/price.js";
import { DAY, HOUR, interval } from "../../src/core/time.js";
import { T0 } from "../support/context.js";

test("a started metre and a started day are charged", () => {
  assert.equal(chargeableMetres(19_940), 200);
  assert.equal(chargeableMetres(20_000), 200);
  const usage = { lengthCm: 19_940, stay: interval(T0 + 6 * HOUR, T0 + DAY + 6 * HOUR + 1) };
  assert.equal(quantityFor("metre-day", usage), 400);
  assert.equal(quantityFor("metre-day", { ...usage, stay: interval(T0, T0 + DAY) }), 200);
});

test("each basis reads its own field", () => {
  const usage = { grossTonnage: 9_800, moves: 12, reeferDays: 7, valueMinor: 5_000_000 };
  assert.equal(quantityFor("gt-call", usage), 9_800);
  assert.equal(quantityFor("move", usage), 12);
  assert.equal(quantityFor("reefer-day", usage), 7);
  assert.equal(quantityFor("value", usage), 5_000_000);
  assert.throws(() => quantityFor("metre-day", usage), /lengthCm: is needed/);
});

test("unit bases multiply the rate", () => {
  assert.equal(amountOf({ basis: "move", rateMinor: 8_500 }, 12), 102_000);
  assert.equal(amountOf({ basis: "gt-call", rateMinor: 45 }, 9_800), 441_000);
});

test("the value basis takes its per-mille", () => {
  assert.equal(amountOf({ basis: "value", ratePermille: 3 }, 5_000_000), 15_000);
  assert.equal(amountOf({ basis: "value", ratePermille: 3 }, 1_000), 3);
});

test("rates and quantities read as the sheet prints them", () => {
  assert.equal(rateText({ basis: "gt-call", rateMinor: 45 }), "0,45 EUR per GT");
  assert.equal(rateText({ basis: "value", ratePermille: 3 }), "3 ‰ of value");
  assert.equal(quantityLabel("reefer-day", 4), "4 reefer-days");
  assert.equal(rateChangePermille({ basis: "move", rateMinor: 8_000 }, { basis: "move", rateMinor: 8_500 }), 63);
  assert.equal(rateChangePermille({ basis: "move", rateMinor: 8_000 }, { basis: "value", ratePermille: 3 }), null);
});
