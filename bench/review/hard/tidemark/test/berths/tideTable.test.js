import assert from "node:assert/strict";
import { test } from "node:test";
import { testContext, T0 } from "../support/context.js";
import { HOUR } from "../../src/core/time.js";
import { createBerthStores } from "../../src/berths/stores.js";
import { createTideTable } from "../../src/berths/tides/tideTable.js";
import { BERTH_EVENTS } from "../../src/berths/events.js";

function table() {
  const ctx = testContext();
  const t = createTideTable(ctx, createBerthStores());
  t.load([
    { at: T0, kind: "low", heightCm: 50 },
    { at: T0 + 6 * HOUR, kind: "high", heightCm: 350 },
    { at: T0 + 12 * HOUR, kind: "low", heightCm: 80 },
  ]);
  return { ctx, t };
}

test("heights follow the cosine between extremes, in whole cm", () => {
  const { t } = table();
  assert.equal(t.heightAt(T0), 50);
  assert.equal(t.heightAt(T0 + 3 * HOUR), 200);
  assert.equal(t.heightAt(T0 + 1 * HOUR), 70);
  assert.equal(t.heightAt(T0 + 6 * HOUR), 350);
});

test("outside the table there is no height", () => {
  const { t } = table();
  assert.equal(t.heightAt(T0 - 1), null);
  assert.equal(t.heightAt(T0 + 13 * HOUR), null);
  assert.equal(t.lowestDuring({ start: T0 + HOUR, end: T0 + 13 * HOUR }), null);
});

test("the lowest water of a stay counts a low water inside it", () => {
  const { t } = table();
  assert.deepEqual(t.lowestDuring({ start: T0 + 5 * HOUR, end: T0 + 12 * HOUR }), { at: T0 + 12 * HOUR, heightCm: 80 });
  assert.deepEqual(t.lowestDuring({ start: T0 + 2 * HOUR, end: T0 + 7 * HOUR }).at, T0 + 2 * HOUR);
});

test("a reload replaces the extremes it covers and says so", () => {
  const { ctx, t } = table();
  const seen = [];
  ctx.events.subscribe(BERTH_EVENTS.tidesLoaded, (p) => seen.push(p.count));
  t.load([{ at: T0 + 6 * HOUR, kind: "high", heightCm: 360 }]);
  assert.equal(t.heightAt(T0 + 6 * HOUR), 360);
  assert.equal(t.size(), 3);
  assert.deepEqual(seen, [1]);
});

test("extremes must alternate", () => {
  const { t } = table();
  assert.throws(() => t.load([{ at: T0 + 18 * HOUR, kind: "low", heightCm: 40 }]), /two low waters/);
});
