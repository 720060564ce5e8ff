import assert from "node:assert/strict";
import { test } from "node:test";
import { berthWorld, bookingInput, at, BERTHS } from "./fixtures.js";
import { roomSouthCm } from "../../src/berths/plan/fenders.js";
import { fitReport } from "../../src/berths/plan/fit.js";
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

test("room to the south is the distance to the next vessel less the fender gap", async () => {
  const { ctx, parts, api } = berthWorld();
  await api.createBooking(bookingInput("B1-2", "VSL-000002", 2, 14));
  const stay = { start: at(4), end: at(6) };
  const bookings = parts.queries.activeOnQuay("Q1");
  const berthOf = (id) => parts.berths.getBerth(id);
  assert.equal(roomSouthCm(ctx, parts.berths.getBerth("B1-1"), stay, bookings, berthOf), 20_000 - 500);
  assert.equal(roomSouthCm(ctx, parts.berths.getBerth("B1-3"), stay, bookings, berthOf), null);
  assert.equal(roomSouthCm(ctx, parts.berths.getBerth("B1-1"), { start: at(14), end: at(16) }, bookings, berthOf), null);
});

test("the fit report says where a vessel could go", () => {
  const report = fitReport(BERTHS, { type: "roro", lengthCm: 15_000 });
  assert.deepEqual(report.filter((r) => r.fits).map((r) => r.berthId), ["B1-3"]);
  assert.match(report[0].reasons[0], /does not take roro/);
});
