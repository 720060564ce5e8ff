import assert from "node:assert/strict";
import { test } from "node:test";
import { loadConfig } from "../../src/core/config.js";
import { createStore } from "../../src/core/store.js";
import { checkRest, restAfter, restBefore } from "../../src/workforce/shifts/rest.js";
import { checkLength, splitIntoShifts } from "../../src/workforce/shifts/limits.js";
import { at } from "./fixtures.js";

const config = loadConfig();

function shifts(...spans) {
  const store = createStore("shift");
  spans.forEach(([start, end], i) => store.insert({ id: `SHF-00000${i + 1}`, workerId: "WRK-1", start, end, status: "assigned" }));
  return store;
}

test("rest is measured from the neighbouring shifts", () => {
  const ordered = [
    { start: at(0, 6), end: at(0, 14) },
    { start: at(1, 14), end: at(1, 22) },
  ];
  const span = { start: at(1, 1), end: at(1, 5) };
  assert.equal(restBefore(ordered, span), 11 * 60);
  assert.equal(restAfter(ordered, span), 9 * 60);
  assert.equal(restBefore([], span), null);
});

test("eleven hours between shifts is enough, less is not", () => {
  const store = shifts([at(0, 6), at(0, 14)]);
  assert.deepEqual(checkRest(config, store, "WRK-1", { start: at(1, 1), end: at(1, 9) }), []);
  assert.deepEqual(checkRest(config, store, "WRK-1", { start: at(1, 0), end: at(1, 8) }), ["short_rest"]);
  assert.deepEqual(checkRest(config, store, "WRK-1", { start: at(0, 0), end: at(0, 2) }), ["short_rest"]);
});

test("the nearest earlier shift counts, not an older one", () => {
  const ordered = [
    { start: at(0, 6), end: at(0, 10) },
    { start: at(0, 22), end: at(1, 2) },
  ];
  assert.equal(restBefore(ordered, { start: at(1, 8), end: at(1, 12) }), 6 * 60);
});

test("the minimum rest follows the setting", () => {
  const store = shifts([at(0, 6), at(0, 14)]);
  const strict = loadConfig({ workforce: { minRestMinutes: 720 } });
  assert.deepEqual(checkRest(strict, store, "WRK-1", { start: at(1, 1), end: at(1, 9) }), ["short_rest"]);
});

test("a shift is at most maxShiftMinutes, and an operation splits into such shifts", () => {
  assert.deepEqual(checkLength(config, { start: at(0, 6), end: at(0, 18) }), []);
  assert.deepEqual(checkLength(config, { start: at(0, 6), end: at(0, 18, 1) }), ["shift_too_long"]);
  const parts = splitIntoShifts(config, { start: at(0, 6), end: at(1, 12) });
  assert.deepEqual(parts.map((p) => (p.end - p.start) / 3_600_000), [12, 12, 6]);
});
