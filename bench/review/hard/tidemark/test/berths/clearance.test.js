import assert from "node:assert/strict";
import { test } from "node:test";
import { berthWorld, bookingInput } from "./fixtures.js";
import { clearanceDuring, clearanceProfile, maxDraughtCm, underKeelCm } from "../../src/berths/plan/clearance.js";

test("under-keel clearance is depth plus tide less draught", () => {
  assert.equal(underKeelCm(1_200, 60, 1_250), 10);
});

test("a deep vessel fits at high water but not over the low water of its stay", async () => {
  const { api } = berthWorld({ vessels: { "VSL-000009": { id: "VSL-000009", type: "container", lengthCm: 15_000, draughtCm: 1_300 } } });
  // B1-2 is dredged to 12 m: 1 200 + 60 at low water - 1 300 leaves -40 cm.
  await assert.rejects(api.createBooking(bookingInput("B1-2", "VSL-000009", 3, 11)), /-40 cm under the keel at B1-2/);
  // Around high water alone the same berth is deep enough.
  await api.createBooking(bookingInput("B1-2", "VSL-000009", 3, 6));
  // At B1-1 (14 m) the low water leaves 160 cm.
  const b = await api.createBooking(bookingInput("B1-1", "VSL-000009", 3, 20));
  assert.equal(b.berthId, "B1-1");
});

test("the clearance is taken at the lowest tide, not on arrival", () => {
  const { parts } = berthWorld();
  const berth = parts.berths.getBerth("B1-2");
  const lowWater = parts.tides.extremesBetween({ start: 0, end: Number.MAX_SAFE_INTEGER }).find((x) => x.kind === "low" && x.at > Date.parse("2026-03-02T06:00:00Z"));
  const stay = { start: lowWater.at - 3 * 3_600_000, end: lowWater.at + 3_600_000 };
  const c = clearanceDuring(parts.tides, berth, 1_100, stay);
  assert.equal(c.at, lowWater.at);
  assert.equal(c.ukcCm, 1_200 + 60 - 1_100);
});

test("without a tide table a stay cannot be checked", async () => {
  const { api } = berthWorld({ tides: null });
  await assert.rejects(api.createBooking(bookingInput("B1-1", "VSL-000002", 2, 10)), /no tide table covers the stay/);
});

test("the setting decides the clearance needed", async () => {
  const { api } = berthWorld({ config: { berthing: { ukcMinCm: 250 } } });
  await assert.rejects(api.createBooking(bookingInput("B1-1", "VSL-000001", 2, 14)), /210 cm under the keel.*250 cm needed/);
});

test("the clearance profile and the deepest draught a berth takes over a stay", () => {
  const { ctx, parts } = berthWorld();
  const berth = parts.berths.getBerth("B1-2");
  const stay = { start: Date.parse("2026-03-02T02:00:00Z"), end: Date.parse("2026-03-02T14:00:00Z") };
  const profile = clearanceProfile(parts.tides, berth, 1_100, stay, 60);
  assert.equal(profile.length, 12);
  // Samples miss the exact low water by a few minutes: never below the clearance at the low water.
  const lowest = clearanceDuring(parts.tides, berth, 1_100, stay).ukcCm;
  assert.equal(lowest, 160);
  assert.ok(Math.min(...profile.map((p) => p.ukcCm)) >= lowest);
  assert.equal(maxDraughtCm(ctx, parts.tides, berth, stay), 1_200 + 60 - 60);
  assert.equal(maxDraughtCm(ctx, parts.tides, berth, { start: 0, end: 1 }), null);
});
