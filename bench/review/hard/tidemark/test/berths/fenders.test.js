import assert from "node:assert/strict";
import { test } from "node:test";
import { berthWorld, bookingInput } from "./fixtures.js";
import { gapBetweenCm, overhangAllowed, vesselSpan } from "../../src/berths/quays/layout.js";

test("spans are measured from the berth's north end", () => {
  const a = vesselSpan({ fromCm: 0 }, 18_000);
  const b = vesselSpan({ fromCm: 20_000 }, 12_000);
  assert.equal(gapBetweenCm(a, b), 2_000);
  assert.equal(gapBetweenCm(b, a), 2_000);
  assert.equal(overhangAllowed({ fromCm: 0, toCm: 20_000 }, 22_000), true);
  assert.equal(overhangAllowed({ fromCm: 0, toCm: 20_000 }, 22_300), false);
});

test("two vessels side by side on a quay keep the fender gap", async () => {
  const { api } = berthWorld();
  // Sines Trader at B1-1 is 198 m: it ends 2 m short of B1-2's north end.
  await api.createBooking(bookingInput("B1-1", "VSL-000005", 2, 14));
  await assert.rejects(api.createBooking(bookingInput("B1-2", "VSL-000002", 10, 20)), /200 cm from BKG-000001 at B1-1, 500 cm needed/);
  await api.createBooking(bookingInput("B1-2", "VSL-000002", 14, 20));
});

test("the fender gap comes from the settings", async () => {
  const { api } = berthWorld({ config: { berthing: { fenderGapCm: 150 } } });
  await api.createBooking(bookingInput("B1-1", "VSL-000005", 2, 14));
  await api.createBooking(bookingInput("B1-2", "VSL-000002", 10, 20));
});

test("vessels on different quays never clash", async () => {
  const { api } = berthWorld();
  await api.createBooking(bookingInput("B1-1", "VSL-000005", 2, 14));
  await api.createBooking(bookingInput("B2-1", "VSL-000004", 2, 14));
});
