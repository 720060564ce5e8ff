import assert from "node:assert/strict";
import { test } from "node:test";
import { berthWorld, bookingInput, at } from "./fixtures.js";
import { BERTH_EVENTS } from "../../src/berths/events.js";

test("a booking is stored frozen, confirmed, with the vessel's size", async () => {
  const { api } = berthWorld();
  const b = await api.createBooking(bookingInput("B1-1", "VSL-000001", 2, 14));
  assert.equal(b.id, "BKG-000001");
  assert.equal(b.status, "confirmed");
  assert.equal(b.quayId, "Q1");
  assert.equal(b.lengthCm, 18_000);
  assert.equal(b.draughtCm, 1_250);
  assert.ok(Object.isFrozen(b));
});

test("stays are half-open: the next vessel may come alongside as the last one leaves", async () => {
  const { api } = berthWorld();
  await api.createBooking(bookingInput("B1-1", "VSL-000001", 2, 14));
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 14, 20));
  await assert.rejects(api.createBooking(bookingInput("B1-1", "VSL-000002", 13, 20)), /B1-1 is booked by BKG-000001/);
});

test("the event follows the store write", async () => {
  const { ctx, api } = berthWorld();
  const seen = [];
  ctx.events.subscribe(BERTH_EVENTS.bookingCreated, ({ bookingId }) => seen.push(api.getBooking(bookingId).status));
  await api.createBooking(bookingInput("B1-2", "VSL-000002", 2, 10));
  assert.deepEqual(seen, ["confirmed"]);
});

test("a vessel the berth does not take is refused", async () => {
  const { api } = berthWorld();
  await assert.rejects(api.createBooking(bookingInput("B1-3", "VSL-000001", 2, 10)), /does not take container/);
  await assert.rejects(api.createBooking(bookingInput("B1-1", "VSL-404", 2, 10)), /vessel VSL-404 not found/);
});

test("a stay shorter than the minimum is refused", async () => {
  const { api } = berthWorld({ config: { berthing: { minStayMinutes: 120 } } });
  await assert.rejects(api.createBooking(bookingInput("B1-1", "VSL-000002", 2, 3.5)), /shorter than 120 min/);
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 2, 4));
});

test("bookings beyond the horizon or in the past are refused", async () => {
  const { api } = berthWorld({ config: { berthing: { bookingHorizonDays: 2 } } });
  await assert.rejects(api.createBooking(bookingInput("B1-1", "VSL-000002", 40, 49)), /booking horizon of 2 days/);
  await assert.rejects(api.createBooking(bookingInput("B1-1", "VSL-000002", -5, -1)), /over already/);
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 40, 48));
});

test("cancelling frees the slot; a cancelled booking cannot be cancelled again", async () => {
  const { api } = berthWorld();
  const b = await api.createBooking(bookingInput("B1-1", "VSL-000001", 2, 14));
  const row = await api.cancelBooking(b.id, "call withdrawn");
  assert.equal(row.cancelReason, "call withdrawn");
  await assert.rejects(api.cancelBooking(b.id), /is cancelled/);
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 4, 10));
});

test("a completed booking leaves the plan", async () => {
  const { api } = berthWorld();
  const b = await api.createBooking(bookingInput("B1-1", "VSL-000001", 2, 14));
  await api.completeBooking(b.id);
  assert.deepEqual(api.planOfBerth("B1-1"), []);
  assert.equal(api.findBooking("BKG-999999"), null);
});

test("a closed berth takes no booking during the closure", async () => {
  const { api } = berthWorld();
  await api.addClosure({ berthId: "B1-2", start: at(0), end: at(24), reason: "fender repair" });
  await assert.rejects(api.createBooking(bookingInput("B1-2", "VSL-000002", 20, 30)), /closed: fender repair/);
  await api.createBooking(bookingInput("B1-2", "VSL-000002", 24, 30));
  await assert.rejects(api.addClosure({ berthId: "B1-2", start: at(25), end: at(26), reason: "x" }), /cannot close B1-2/);
});
