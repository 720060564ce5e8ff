import assert from "node:assert/strict";
import { test } from "node:test";
import { HOUR } from "../../src/core/time.js";
import { freeMinutes, freeWindows } from "../../src/berths/plan/gaps.js";

const h = (n) => n * HOUR;

test("free windows are the parts of the range nothing takes", () => {
  const busy = [
    { start: h(10), end: h(12) },
    { start: h(2), end: h(4) },
  ];
  assert.deepEqual(freeWindows(busy, { start: 0, end: h(24) }), [
    { start: 0, end: h(2) },
    { start: h(4), end: h(10) },
    { start: h(12), end: h(24) },
  ]);
});

test("busy intervals may overlap and reach outside the range", () => {
  const busy = [
    { start: -h(5), end: h(3) },
    { start: h(2), end: h(6) },
    { start: h(20), end: h(30) },
  ];
  assert.deepEqual(freeWindows(busy, { start: 0, end: h(24) }), [{ start: h(6), end: h(20) }]);
});

test("back-to-back stays leave no window between them", () => {
  const busy = [
    { start: h(2), end: h(4) },
    { start: h(4), end: h(6) },
  ];
  assert.deepEqual(freeWindows(busy, { start: h(2), end: h(8) }), [{ start: h(6), end: h(8) }]);
});

test("short windows are left out", () => {
  const busy = [{ start: h(1), end: h(2) }];
  assert.deepEqual(freeWindows(busy, { start: 0, end: h(5) }, 90), [{ start: h(2), end: h(5) }]);
  assert.equal(freeMinutes(busy, { start: 0, end: h(5) }), 240);
});

test("the caller's array is left as it was", () => {
  const busy = Object.freeze([Object.freeze({ start: h(3), end: h(4) }), Object.freeze({ start: h(1), end: h(2) })]);
  freeWindows(busy, { start: 0, end: h(5) });
  assert.equal(busy[0].start, h(3));
});
