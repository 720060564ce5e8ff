import assert from "node:assert/strict";
import { test } from "node:test";
import { berthWorld, bookingInput, at } from "./fixtures.js";
import { bookingsOfVessel, nextOnBerth, statusCounts } from "../../src/berths/plan/planQueries.js";

test("the next booking of a berth and a vessel's bookings in stay order", async () => {
  const { parts, api } = berthWorld();
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 20, 30));
  await api.createBooking(bookingInput("B1-2", "VSL-000002", 2, 10));
  await api.createBooking(bookingInput("B1-1", "VSL-000001", 2, 10));
  assert.equal(nextOnBerth(parts.queries, "B1-1", at(10)).id, "BKG-000001");
  assert.equal(nextOnBerth(parts.queries, "B1-1", at(2)).id, "BKG-000003");
  assert.equal(nextOnBerth(parts.queries, "B1-1", at(21)), null);
  assert.deepEqual(bookingsOfVessel(parts.stores, "VSL-000002").map((b) => b.id), ["BKG-000002", "BKG-000001"]);
});

test("status counts of a berth", async () => {
  const { parts, api } = berthWorld();
  const a = await api.createBooking(bookingInput("B1-1", "VSL-000002", 2, 10));
  await api.placeHold(bookingInput("B1-1", "VSL-000002", 10, 20));
  await api.cancelBooking(a.id);
  assert.deepEqual(statusCounts(parts.stores, "B1-1"), { tentative: 1, confirmed: 0, cancelled: 1, completed: 0 });
  assert.deepEqual(parts.queries.bookingsOfCall("CALL-404"), []);
});
