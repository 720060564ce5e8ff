import assert from "node:assert/strict";
import { test } from "node:test";
import { berthWorld, at } from "./fixtures.js";
import { windowsAbove } from "../../src/berths/tides/tideWindows.js";

const DEEP = { "VSL-000009": { id: "VSL-000009", name: "Deep Alvarim", type: "container", lengthCm: 15_000, draughtCm: 1_300 } };

test("a deep vessel enters around high water only", () => {
  const { api, parts } = berthWorld({ vessels: DEEP });
  const { neededCm, windows } = api.entryWindows("B1-2", "VSL-000009", at(0), at(24));
  assert.equal(neededCm, 1_300 + 60 - 1_200);
  assert.ok(windows.length >= 2);
  for (const w of windows) {
    assert.ok(parts.tides.heightAt(w.start) >= neededCm);
    assert.ok(w.end - w.start < 12 * 3_600_000);
  }
});

test("a vessel that floats at any tide has one window, the whole range", () => {
  const { api } = berthWorld();
  const { neededCm, windows } = api.entryWindows("B1-1", "VSL-000002", at(0), at(24));
  assert.ok(neededCm < 0);
  assert.deepEqual(windows, [{ start: at(0), end: at(24) }]);
});

test("the next entry needs the window open for the whole pilotage", () => {
  const { api } = berthWorld({ vessels: DEEP });
  const first = api.nextEntry("B1-2", "VSL-000009", at(0), at(24), 60);
  assert.ok(first.end - first.start >= 60 * 60_000);
  assert.equal(api.nextEntry("B1-2", "VSL-000009", at(0), at(24), 24 * 60), null);
});

test("outside the tide table there are no windows", () => {
  const { api, parts } = berthWorld({ vessels: DEEP });
  assert.throws(() => api.entryWindows("B1-2", "VSL-000009", at(-48), at(0)), /no tide table/);
  assert.deepEqual(windowsAbove(parts.tides, { start: at(-48), end: at(-40) }, 0), []);
});
