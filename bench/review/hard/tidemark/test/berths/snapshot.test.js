import assert from "node:assert/strict";
import { test } from "node:test";
import { testContext } from "../support/context.js";
import { berthsApi, createBerthParts } from "../../src/berths/index.js";
import { berthWorld, bookingInput, fakeVessels } from "./fixtures.js";

test("a snapshot restores into a fresh module, ids continuing", async () => {
  const { api } = berthWorld();
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 2, 10));
  await api.addClosure({ berthId: "B1-3", start: api.getBooking("BKG-000001").start, end: api.getBooking("BKG-000001").end, reason: "crane" });
  const snap = JSON.parse(JSON.stringify(api.exportSnapshot()));
  assert.equal(snap.tables.bookings[0].version, undefined);

  const copy = berthsApi(createBerthParts(testContext(), { vessels: fakeVessels() }));
  const counts = copy.restoreSnapshot(snap);
  assert.deepEqual([counts.quays, counts.berths, counts.bookings, counts.closures], [2, 4, 1, 1]);
  assert.equal(copy.tideHeightAt(snap.tables.tides[0].at), snap.tables.tides[0].heightCm);
  const next = await copy.createBooking(bookingInput("B1-2", "VSL-000002", 2, 10));
  assert.equal(next.id, "BKG-000002");
});

test("a restore needs empty stores and a known version", () => {
  const { api } = berthWorld();
  const snap = api.exportSnapshot();
  assert.throws(() => api.restoreSnapshot(snap), /empty stores/);
  assert.throws(() => api.restoreSnapshot({ ...snap, version: 9 }), /snapshot version 1/);
});
