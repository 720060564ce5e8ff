import assert from "node:assert/strict";
import { test } from "node:test";
import { canTransition } from "../../src/vessels/calls/call-states.js";
import { nextVoyage } from "../../src/vessels/calls/voyage.js";
import { DAY, HOUR, IMO, T0, callInput, setup, vesselInput, withCall } from "./fixtures.js";

test("a call walks expected -> arrived -> berthed -> departed", async () => {
  const { ctx, vessels, call } = await withCall();
  const seen = [];
  for (const type of ["call.arrived", "call.berthed", "call.departed"]) ctx.events.subscribe(type, (e) => seen.push([type, e.callId]));
  ctx.clock.advance(2 * DAY);
  await vessels.arrive(call.id);
  await vessels.berth(call.id, "B1-3");
  ctx.clock.advance(20 * HOUR);
  const done = await vessels.depart(call.id);
  assert.equal(done.state, "departed");
  assert.equal(done.berthId, "B1-3");
  assert.equal(done.departedAt - done.arrivedAt, 20 * HOUR);
  assert.deepEqual(done.history.map((h) => h.state), ["expected", "arrived", "berthed", "departed"]);
  assert.deepEqual(seen.map(([type]) => type), ["call.arrived", "call.berthed", "call.departed"]);
  await assert.rejects(vessels.arrive(call.id), /cannot go from departed/);
});

test("state rules", () => {
  assert.equal(canTransition("expected", "berthed"), false);
  assert.equal(canTransition("arrived", "departed"), true);
  assert.equal(canTransition("berthed", "cancelled"), false);
});

test("a vessel cannot have two calls in one window, but back-to-back stays are fine", async () => {
  const { vessels, vessel, call } = await withCall();
  await assert.rejects(vessels.declareCall(callInput(vessel.id, { voyage: "043S", eta: call.eta + HOUR, etd: call.etd + HOUR })), /already has call/);
  const next = await vessels.declareCall(callInput(vessel.id, { voyage: "043S", eta: call.etd, etd: call.etd + DAY }));
  assert.equal(next.state, "expected");
  await assert.rejects(vessels.declareCall(callInput(vessel.id, { eta: call.etd + 2 * DAY, etd: call.etd + 3 * DAY })), /voyage 042N/);
});

test("stays are at least the minimum and within the booking horizon", async () => {
  const { vessels } = setup();
  const v = await vessels.registerVessel(vesselInput());
  await assert.rejects(vessels.declareCall(callInput(v.id, { etd: T0 + 2 * DAY + 30 * 60_000 })), /at least 60 minutes/);
  await assert.rejects(vessels.declareCall(callInput(v.id, { eta: T0 + 91 * DAY, etd: T0 + 92 * DAY })), /more than 90 days/);
  await assert.rejects(vessels.declareCall(callInput("VSL-000404")), /not found/);
});

test("an ETA revision moves the stay and is logged", async () => {
  const { ctx, vessels, call } = await withCall();
  const revised = await vessels.reviseEta(call.id, { eta: call.eta + 8 * HOUR });
  assert.equal(revised.etd, call.etd + 8 * HOUR);
  assert.equal(revised.etaRevisions, 1);
  assert.deepEqual(vessels.etaRevisions(call.id).map((r) => r.shiftMinutes), [480]);
  ctx.clock.advance(2 * DAY);
  await vessels.arrive(call.id);
  await assert.rejects(vessels.reviseEta(call.id, { eta: call.eta }), /ETA is history/);
});

test("cancelling needs a reason and frees the window", async () => {
  const { vessels, vessel, call } = await withCall();
  await assert.rejects(Promise.resolve().then(() => vessels.cancelCall(call.id, " ")), /needs a reason/);
  const cancelled = await vessels.cancelCall(call.id, "charter fell through");
  assert.equal(cancelled.cancelReason, "charter fell through");
  const again = await vessels.declareCall(callInput(vessel.id, { voyage: "042S" }));
  assert.equal(again.state, "expected");
});

test("berthing checks the under-keel clearance against the berths port", async () => {
  const berths = { findBerth: (id) => ({ "B1-3": { id: "B1-3", depthCm: 1_300 }, "B4-1": { id: "B4-1", depthCm: 1_200 } })[id] ?? null };
  const { ctx, vessels, call } = await withCall({ deps: { berths } });
  ctx.clock.advance(2 * DAY);
  await vessels.arrive(call.id);
  await assert.rejects(vessels.berth(call.id, "B4-1"), /20 cm under the keel/);
  await assert.rejects(vessels.berth(call.id, "B9-9"), /no berth/);
  const berthed = await vessels.berth(call.id, "B1-3");
  assert.equal(berthed.state, "berthed");
  assert.equal(vessels.atBerth("B1-3").id, call.id);
});

test("voyage numbers keep their width and flip direction", () => {
  assert.equal(nextVoyage("042N"), "043S");
  assert.equal(nextVoyage("0999E"), "1000W");
});

test("expected arrivals come soonest first", async () => {
  const { vessels } = setup();
  const a = await vessels.registerVessel(vesselInput());
  const b = await vessels.registerVessel(vesselInput({ imo: IMO.bulker, name: "Cabo Star" }));
  await vessels.declareCall(callInput(a.id, { eta: T0 + 10 * HOUR, etd: T0 + DAY }));
  await vessels.declareCall(callInput(b.id, { eta: T0 + 5 * HOUR, etd: T0 + DAY }));
  assert.deepEqual(vessels.expectedArrivals(12).map((c) => c.vesselId), [b.id, a.id]);
  assert.deepEqual(vessels.expectedArrivals(6).map((c) => c.vesselId), [b.id]);
});
