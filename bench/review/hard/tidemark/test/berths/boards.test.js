import assert from "node:assert/strict";
import { test } from "node:test";
import { berthWorld, bookingInput, at, T0 } from "./fixtures.js";
import { explainRanking } from "../../src/berths/allocation/ranking.js";
import { occupancyCsv } from "../../src/berths/reports/occupancyFormat.js";
import { peakHour } from "../../src/berths/reports/quayUtilisation.js";
import { dayLabel, relativeLabel, timeLabel } from "../../src/berths/formatters/timeLabel.js";

test("a ranked list explains each step", async () => {
  const { api } = berthWorld();
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 0, 10));
  const ranked = api.suggestBerths({ vesselId: "VSL-000002", earliest: at(2), latest: at(30), stayMinutes: 360 });
  assert.deepEqual(explainRanking(ranked, timeLabel), [
    "1. B1-2 02/03 02:00 (more water than B1-3)",
    "2. B1-3 02/03 02:00 (earlier than B1-1)",
    "3. B1-1 02/03 10:00",
  ]);
});

test("occupancy as CSV", async () => {
  const { api } = berthWorld();
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 0, 12));
  const csv = occupancyCsv(api.occupancyReport(at(0), at(24))).split("\n");
  assert.equal(csv[0], "berth,quay,occupied_minutes,share_permille");
  assert.equal(csv[1], "B1-1,Q1,720,500");
  assert.equal(csv.length, 5);
});

test("the peak hour of a quay", async () => {
  const { parts, api } = berthWorld();
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 0, 12));
  await api.createBooking(bookingInput("B1-2", "VSL-000001", 5, 8));
  assert.deepEqual(peakHour(parts.stores, "Q1", { start: at(0), end: at(24) }), { start: at(5), usedCm: 30_000 });
});

test("day and relative labels", () => {
  assert.equal(dayLabel(T0 + 5), "2026-03-02");
  assert.equal(relativeLabel(at(3.25), T0), "in 3 h 15 min");
  assert.equal(relativeLabel(T0 - 5 * 60_000, T0), "5 min ago");
  assert.equal(relativeLabel(T0, T0), "now");
});
