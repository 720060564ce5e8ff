import assert from "node:assert/strict";
import { test } from "node:test";
import { berthWorld, bookingInput, at } from "./fixtures.js";

async function world() {
  const w = berthWorld({ config: { paging: { defaultLimit: 2 } } });
  await w.api.createBooking(bookingInput("B1-1", "VSL-000002", 30, 40));
  await w.api.createBooking(bookingInput("B1-2", "VSL-000002", 2, 10));
  await w.api.placeHold(bookingInput("B1-1", "VSL-000002", 2, 10));
  await w.api.createBooking(bookingInput("B1-3", "VSL-000003", 50, 60));
  return w;
}

test("bookings page by cursor over their ids", async () => {
  const { api } = await world();
  const first = api.listBookings();
  assert.deepEqual(first.items.map((b) => b.id), ["BKG-000001", "BKG-000002"]);
  const second = api.listBookings({ cursor: first.nextCursor });
  assert.deepEqual(second.items.map((b) => b.id), ["BKG-000003", "BKG-000004"]);
  assert.equal(second.nextCursor, null);
});

test("filters by berth, status and overlapping range", async () => {
  const { api } = await world();
  assert.deepEqual(api.listBookings({ berthId: "B1-1", limit: 10 }).items.map((b) => b.id), ["BKG-000001", "BKG-000003"]);
  assert.deepEqual(api.listBookings({ status: "tentative" }).items.map((b) => b.holdUntil !== null), [true]);
  assert.deepEqual(api.listBookings({ from: at(10), to: at(50) }).items.map((b) => b.id), ["BKG-000001"]);
  assert.throws(() => api.listBookings({ status: "sunk" }), /status/);
  assert.throws(() => api.listBookings({ from: at(10) }), /both from and to/);
});

test("the limit is capped by the settings", async () => {
  const { api } = await world();
  assert.equal(api.listBookings({ limit: 1 }).items.length, 1);
  assert.throws(() => api.listBookings({ limit: 0 }), /limit/);
});
