import assert from "node:assert/strict";
import { test } from "node:test";
import { berthWorld, bookingInput, at } from "./fixtures.js";

test("a berth shows the vessel alongside until it sails", async () => {
  const { api } = berthWorld();
  const b = await api.createBooking(bookingInput("B1-1", "VSL-000002", 2, 10));
  assert.deepEqual(api.berthStatus("B1-1", at(5)), { berthId: "B1-1", state: "alongside", bookingId: b.id, vesselId: "VSL-000002", until: at(10), reason: null });
  assert.equal(api.berthStatus("B1-1", at(1)).until, at(2));
  assert.equal(api.berthStatus("B1-1", at(1)).state, "free");
});

test("at the changeover minute the arriving vessel is alongside", async () => {
  const { api } = berthWorld();
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 2, 10));
  const next = await api.createBooking(bookingInput("B1-1", "VSL-000002", 10, 16));
  assert.equal(api.berthStatus("B1-1", at(10)).bookingId, next.id);
});

test("closed berths and the port summary", async () => {
  const { api } = berthWorld();
  await api.addClosure({ berthId: "B1-3", start: at(0), end: at(12), reason: "dredging" });
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 0, 10));
  assert.deepEqual(api.quayStatus("Q1", at(1)).map((s) => [s.berthId, s.state, s.reason]), [
    ["B1-1", "alongside", null],
    ["B1-2", "free", null],
    ["B1-3", "closed", "dredging"],
  ]);
  assert.deepEqual(api.portSummary(at(1)), { alongside: 1, closed: 1, free: 2 });
  assert.throws(() => api.berthStatus("B9-9"), /not found/);
});
