import assert from "node:assert/strict";
import { test } from "node:test";
import { testContext } from "../support/context.js";
import { createBerthStores } from "../../src/berths/stores.js";
import { createQuayRegistry } from "../../src/berths/quays/quayRegistry.js";
import { createBerthRegistry } from "../../src/berths/quays/berthRegistry.js";
import { QUAYS, BERTHS } from "./fixtures.js";

function registries() {
  const ctx = testContext();
  const stores = createBerthStores();
  return { quays: createQuayRegistry(ctx, stores), berths: createBerthRegistry(ctx, stores) };
}

test("a quay keeps its bollards in order along the face", () => {
  const { quays } = registries();
  const row = quays.addQuay({ ...QUAYS[0], bollards: [QUAYS[0].bollards[3], QUAYS[0].bollards[0]] });
  assert.deepEqual(row.bollards.map((b) => b.id), ["Q1-01", "Q1-04"]);
  assert.ok(Object.isFrozen(row.bollards));
  assert.throws(() => quays.addQuay(QUAYS[0]), /exists/);
});

test("quay ids and bollards are checked", () => {
  const { quays } = registries();
  assert.throws(() => quays.addQuay({ id: "Q9", name: "x", lengthCm: 100 }), /id/);
  assert.throws(() => quays.addQuay({ id: "Q3", name: "x", lengthCm: 100, bollards: [{ id: "Q3-01", atCm: 200, swlKg: 1 }] }), /beyond/);
  assert.throws(() => quays.addQuay({ id: "Q3", name: "x", lengthCm: 100, bollards: [{ id: "Q2-01", atCm: 20, swlKg: 1 }] }), /not on Q3/);
  assert.equal(quays.findQuay("Q4"), null);
  assert.throws(() => quays.getQuay("Q4"), /not found/);
});

test("berths of one quay may meet but not overlap", () => {
  const { quays, berths } = registries();
  quays.addQuay(QUAYS[0]);
  berths.addBerth(BERTHS[0]);
  berths.addBerth(BERTHS[1]);
  assert.throws(() => berths.addBerth({ ...BERTHS[2], fromCm: 39_999 }), /overlaps B1-2/);
  assert.deepEqual(berths.berthsOnQuay("Q1").map((b) => b.id), ["B1-1", "B1-2"]);
});

test("a berth lies on the quay its id names, within the quay", () => {
  const { quays, berths } = registries();
  quays.addQuay(QUAYS[0]);
  assert.throws(() => berths.addBerth({ ...BERTHS[0], id: "B2-1" }), /not on Q1/);
  assert.throws(() => berths.addBerth({ ...BERTHS[2], toCm: 60_001 }), /beyond/);
  assert.throws(() => berths.addBerth({ ...BERTHS[0], vesselTypes: ["submarine"] }), /unknown vessel type/);
});

test("a resurvey may not cut a berth off the quay", () => {
  const { quays, berths } = registries();
  quays.addQuay(QUAYS[0]);
  berths.addBerth(BERTHS[2]);
  assert.throws(() => quays.resurveyQuay("Q1", { lengthCm: 50_000, bollards: [] }), /B1-3/);
  const row = quays.resurveyQuay("Q1", { lengthCm: 61_000 });
  assert.equal(row.lengthCm, 61_000);
  assert.equal(berths.setDepth("B1-3", 950).depthCm, 950);
});
