import assert from "node:assert/strict";
import { test } from "node:test";
import { chargeableDays, contains, DAY, HOUR, interval, intersection, overlaps } from "../../src/core/time.js";

test("intervals are half-open", () => {
  const a = interval(0, HOUR);
  const b = interval(HOUR, 2 * HOUR);
  assert.equal(overlaps(a, b), false);
  assert.equal(contains(a, HOUR), false);
  assert.equal(contains(a, 0), true);
  assert.equal(intersection(a, b), null);
});

test("a started day is a chargeable day", () => {
  assert.equal(chargeableDays(interval(0, DAY)), 1);
  assert.equal(chargeableDays(interval(0, DAY + 1)), 2);
});

test("an empty interval is refused", () => {
  assert.throws(() => interval(5, 5), /end must be after start/);
});
