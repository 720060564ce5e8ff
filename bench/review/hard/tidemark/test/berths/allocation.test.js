import assert from "node:assert/strict";
import { test } from "node:test";
import { berthWorld, bookingInput, at } from "./fixtures.js";
import { bySuggestion, preferenceReason } from "../../src/berths/allocation/ranking.js";

const DEEP = { "VSL-000009": { id: "VSL-000009", name: "Deep Alvarim", type: "container", lengthCm: 15_000, draughtCm: 1_300 } };

test("free berths rank by start, then fit, then water under the keel", () => {
  const { api } = berthWorld();
  const got = api.suggestBerths({ vesselId: "VSL-000002", earliest: at(2), latest: at(30), stayMinutes: 360 });
  assert.deepEqual(got.map((s) => [s.rank, s.berthId, s.start]), [
    [1, "B1-1", at(2)],
    [2, "B1-2", at(2)],
    [3, "B1-3", at(2)],
  ]);
  assert.equal(got[0].end, at(8));
  assert.ok(got[0].ukcCm > got[1].ukcCm);
});

test("a booked berth is offered after its booking", async () => {
  const { api } = berthWorld();
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 0, 10));
  await api.createBooking(bookingInput("B1-2", "VSL-000002", 0, 12));
  await api.createBooking(bookingInput("B1-3", "VSL-000002", 0, 20));
  const got = api.suggestBerths({ vesselId: "VSL-000002", earliest: at(2), latest: at(40), stayMinutes: 360 });
  assert.deepEqual(got.map((s) => [s.berthId, s.start]), [
    ["B1-1", at(10)],
    ["B1-2", at(12)],
    ["B1-3", at(20)],
  ]);
});

test("a berth too shallow at the stay's low water is not offered", () => {
  const { api } = berthWorld({ vessels: DEEP });
  const got = api.suggestBerths({ vesselId: "VSL-000009", earliest: at(2), latest: at(40), stayMinutes: 720 });
  assert.deepEqual(got.map((s) => s.berthId), ["B1-1"]);
});

test("the request may name berths and cap the list", () => {
  const { api } = berthWorld();
  const got = api.suggestBerths({ vesselId: "VSL-000002", earliest: at(2), latest: at(30), stayMinutes: 360, berthIds: ["B1-2", "B1-3"], limit: 1 });
  assert.deepEqual(got.map((s) => s.berthId), ["B1-2"]);
});

test("requests outside the horizon or shorter than the minimum stay are refused", () => {
  const { api } = berthWorld({ config: { berthing: { bookingHorizonDays: 1 } } });
  assert.throws(() => api.suggestBerths({ vesselId: "VSL-000002", earliest: at(30), latest: at(40), stayMinutes: 360 }), /outside the booking horizon/);
  assert.throws(() => api.suggestBerths({ vesselId: "VSL-000002", earliest: at(2), latest: at(20), stayMinutes: 30 }), /minimum stay/);
});

test("the ranking explains itself", () => {
  const a = { start: 1, spareLengthCm: 10, ukcCm: 100, berthId: "B1-1" };
  const b = { start: 1, spareLengthCm: 20, ukcCm: 300, berthId: "B1-2" };
  assert.ok(bySuggestion(a, b) < 0);
  assert.equal(preferenceReason(a, b), "tighter fit");
});
