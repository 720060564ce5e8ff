import assert from "node:assert/strict";
import { test } from "node:test";
import { berthWorld, bookingInput, at } from "./fixtures.js";

test("a stay changes when the new one passes the checks", async () => {
  const { api } = berthWorld();
  const b = await api.createBooking(bookingInput("B1-1", "VSL-000002", 2, 14));
  const row = await api.changeStay(b.id, { start: at(4), end: at(16) });
  assert.equal(row.start, at(4));
  assert.equal(row.version, 2);
});

test("a booking does not conflict with itself, but with its neighbour", async () => {
  const { api } = berthWorld();
  const b = await api.createBooking(bookingInput("B1-1", "VSL-000002", 2, 14));
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 20, 30));
  await api.changeStay(b.id, { start: at(2), end: at(20) });
  await assert.rejects(api.changeStay(b.id, { start: at(2), end: at(21) }), /booked by BKG-000002/);
});

test("a shifted stay keeps its length", async () => {
  const { api } = berthWorld();
  const b = await api.createBooking(bookingInput("B1-1", "VSL-000002", 2, 14));
  const row = await api.shiftStay(b.id, 90);
  assert.equal(row.end - row.start, b.end - b.start);
  assert.equal(row.start, at(3.5));
});

test("the minimum stay holds for a changed stay too", async () => {
  const { api } = berthWorld();
  const b = await api.createBooking(bookingInput("B1-1", "VSL-000002", 2, 14));
  await assert.rejects(api.changeStay(b.id, { start: at(2), end: at(2.5) }), /shorter than 60 min/);
  await assert.rejects(api.changeStay(b.id, { start: at(3), end: at(2) }), /end must be after start/);
});
