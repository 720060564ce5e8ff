import assert from "node:assert/strict";
import { test } from "node:test";
import { T0, testContext } from "../test/support/context.js";
import { createBerthParts } from "../src/berths/index.js";

const HOUR = 3_600_000;
const at = (h) => T0 + h * HOUR;

async function world() {
  const ctx = testContext();
  const vessels = { "VSL-000002": { id: "VSL-000002", name: "Costa Brava", type: "general", lengthCm: 12_000, draughtCm: 700 } };
  const parts = createBerthParts(ctx, { vessels: { findVessel: (id) => vessels[id] ?? null } });
  parts.quays.addQuay({ id: "Q1", name: "North Quay", lengthCm: 60_000, bollards: [] });
  parts.berths.addBerth({ id: "B1-1", quayId: "Q1", fromCm: 0, toCm: 20_000, depthCm: 1_400, vesselTypes: ["general"] });
  parts.tides.load(Array.from({ length: 40 }, (_, i) => ({ at: T0 - 2 * HOUR + i * 6 * HOUR, kind: i % 2 ? "high" : "low", heightCm: i % 2 ? 380 : 60 })));
  const booking = await parts.bookingService.createBooking({ berthId: "B1-1", vesselId: "VSL-000002", callId: "CALL-1", start: at(2), end: at(14) });
  return { parts, booking };
}

test("a shortened stay still lasts the minimum stay", async () => {
  const { parts, booking } = await world();
  // Shortening goes through the reschedule part: whatever it is called, a stay of 15 minutes
  // (below berthing.minStayMinutes = 60) must not be accepted.
  const r = parts.reschedule;
  const shorten = r.endStayEarly ?? ((id, end) => r.changeStay(id, { start: booking.start, end }));
  await assert.rejects(shorten(booking.id, at(2.25)), /min/);
  assert.equal(parts.queries.getBooking(booking.id).end, at(14));
});
