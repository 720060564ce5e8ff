import assert from "node:assert/strict";
import { test } from "node:test";
import { berthWorld, bookingInput, at } from "./fixtures.js";

test("the board lists arrivals and departures with their boarding point", async () => {
  const { api } = berthWorld();
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 2, 10));
  await api.createBooking(bookingInput("B2-1", "VSL-000004", 4, 30));
  assert.deepEqual(api.movementsBoard(24), [
    "02/03 02:00 ARR VSL-000002 B1-1 PBP North",
    "02/03 04:00 ARR VSL-000004 B2-1 PBP North",
    "02/03 10:00 DEP VSL-000002 B1-1 PBP North",
  ]);
});

test("a departure goes before an arrival on the same minute", async () => {
  const { api } = berthWorld();
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 2, 10));
  await api.createBooking(bookingInput("B1-1", "VSL-000005", 10, 16));
  const m = api.movements(at(9), at(11));
  assert.deepEqual(m.map((x) => [x.kind, x.bookingId]), [["departure", "BKG-000001"], ["arrival", "BKG-000002"]]);
});

test("a movement at the end of the range belongs to the next board", async () => {
  const { api } = berthWorld();
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 2, 10));
  assert.deepEqual(api.movements(at(0), at(10)).map((x) => x.kind), ["arrival"]);
});
