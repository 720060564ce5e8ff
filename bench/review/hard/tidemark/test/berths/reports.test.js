import assert from "node:assert/strict";
import { test } from "node:test";
import { berthWorld, bookingInput, at, T0 } from "./fixtures.js";
import { formatOccupancyTable, busiest } from "../../src/berths/reports/occupancyFormat.js";

test("occupancy counts only the part of a stay inside the range", async () => {
  const { api } = berthWorld();
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 0, 6));
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 18, 30));
  const rows = api.occupancyReport(at(0), at(24));
  assert.deepEqual(rows[0], { berthId: "B1-1", quayId: "Q1", occupiedMinutes: 720, permille: 500 });
  assert.equal(rows[1].occupiedMinutes, 0);
  assert.deepEqual(busiest(rows, 400).map((r) => r.berthId), ["B1-1"]);
});

test("cancelled bookings do not occupy, completed ones do", async () => {
  const { api } = berthWorld();
  const a = await api.createBooking(bookingInput("B1-2", "VSL-000002", 0, 6));
  const b = await api.createBooking(bookingInput("B1-2", "VSL-000002", 6, 12));
  await api.cancelBooking(a.id);
  await api.completeBooking(b.id);
  assert.equal(api.occupancyReport(at(0), at(24))[1].occupiedMinutes, 360);
});

test("quay averages and the weekly table", async () => {
  const { api } = berthWorld();
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 0, 24));
  const quays = api.quayOccupancy(at(0), at(24));
  assert.deepEqual(quays.map((q) => [q.quayId, q.permille]), [["Q1", 333], ["Q2", 0]]);
  const table = formatOccupancyTable(api.occupancyReport(at(0), at(24)), quays);
  assert.match(table, /B1-1  Q1    100,0 %     1 440 min/);
  assert.match(table, /Q1 average 33,3 % over 3 berths/);
});

test("quay utilisation weighs each vessel by its own length", async () => {
  const { api } = berthWorld();
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 0, 24));
  const [q1] = api.quayUtilisation(at(0), at(24));
  assert.equal(q1.permille, 200);
});

test("the daily sheet lists the day's bookings by berth", async () => {
  const { api } = berthWorld();
  await api.createBooking(bookingInput("B1-2", "VSL-000002", 2, 10));
  await api.placeHold(bookingInput("B1-1", "VSL-000001", 20, 30));
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 30, 40));
  const lines = api.dailySheet(T0 + 5_000).split("\n");
  assert.equal(lines[0], "Alvarim berth sheet 02/03");
  assert.deepEqual(lines.slice(2), [
    "BKG-000002 tentative hold B1-1 (Q1) VSL-000001 02/03 20:00 → 03/03 06:00 180,00 m / 12,50 m",
    "BKG-000001 confirmed B1-2 (Q1) VSL-000002 02/03 02:00 → 02/03 10:00 120,00 m / 7,00 m",
  ]);
});
