import assert from "node:assert/strict";
import { test } from "node:test";
import { berthWorld, bookingInput } from "./fixtures.js";
import { BERTH_EVENTS } from "../../src/berths/events.js";

test("a booking moves to another berth with its stay", async () => {
  const { ctx, api } = berthWorld();
  const seen = [];
  ctx.events.subscribe(BERTH_EVENTS.bookingMoved, (p) => seen.push(p));
  const b = await api.createBooking(bookingInput("B1-1", "VSL-000002", 2, 14));
  const row = await api.moveBooking(b.id, "B1-3");
  assert.equal(row.berthId, "B1-3");
  assert.equal(row.start, b.start);
  assert.deepEqual(seen, [{ bookingId: b.id, fromBerthId: "B1-1", toBerthId: "B1-3" }]);
  assert.equal(ctx.locks.isLocked("berth:B1-1"), false);
});

test("a move passes the target's checks", async () => {
  const { api } = berthWorld();
  const b = await api.createBooking(bookingInput("B1-1", "VSL-000001", 2, 14));
  await assert.rejects(api.moveBooking(b.id, "B1-3"), /does not take container/);
  await api.createBooking(bookingInput("B1-2", "VSL-000002", 10, 20));
  await assert.rejects(api.moveBooking(b.id, "B1-2"), /B1-2 is booked by BKG-000002/);
  await assert.rejects(api.moveBooking(b.id, "B1-1"), /at that berth already/);
  assert.equal(api.getBooking(b.id).berthId, "B1-1");
});

test("two moves between the same pair of berths in opposite directions both finish", async () => {
  const { api } = berthWorld();
  const a = await api.createBooking(bookingInput("B1-1", "VSL-000002", 2, 6));
  const b = await api.createBooking(bookingInput("B1-2", "VSL-000002", 20, 26));
  const [ra, rb] = await Promise.all([api.moveBooking(a.id, "B1-2"), api.moveBooking(b.id, "B1-1")]);
  assert.equal(ra.berthId, "B1-2");
  assert.equal(rb.berthId, "B1-1");
});

test("a cancelled booking does not move", async () => {
  const { api } = berthWorld();
  const b = await api.createBooking(bookingInput("B1-1", "VSL-000002", 2, 6));
  await api.cancelBooking(b.id);
  await assert.rejects(api.moveBooking(b.id, "B1-2"), /is cancelled/);
});
