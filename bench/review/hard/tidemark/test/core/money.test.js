import assert from "node:assert/strict";
import { test } from "node:test";
import { allocateMinor, formatMinor, permilleOf, roundMinor, sumMinor } from "../../src/core/money.js";

test("half to even", () => {
  assert.equal(roundMinor(2.5), 2);
  assert.equal(roundMinor(3.5), 4);
  assert.equal(roundMinor(2.51), 3);
  assert.equal(roundMinor(-2.5), -2);
});

test("VAT at 230 per mille, rounded once", () => {
  assert.equal(permilleOf(1_000, 230), 230);
  assert.equal(permilleOf(1_005, 230), 231);
});

test("allocation keeps the sum", () => {
  assert.deepEqual(allocateMinor(1_000, 3), [334, 333, 333]);
  assert.equal(sumMinor(allocateMinor(-1_001, 4)), -1_001);
});

test("amounts print the Portuguese way", () => {
  assert.equal(formatMinor(123_450), "1 234,50 EUR");
  assert.equal(formatMinor(-5), "-0,05 EUR");
});

test("sums refuse fractions", () => {
  assert.throws(() => sumMinor([1, 2.5]), /whole minor units/);
});
