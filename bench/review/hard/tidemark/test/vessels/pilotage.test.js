import assert from "node:assert/strict";
import { test } from "node:test";
import { boardingPointFor, boardingTime, usablePoints } from "../../src/vessels/pilotage/boarding-points.js";
import { jobMinutes } from "../../src/vessels/pilotage/job-duration.js";
import { dutyMinutesAround, restConflict } from "../../src/vessels/pilotage/rest-rules.js";
import { DAY, HOUR, IMO, T0, callInput, vesselInput, withCall } from "./fixtures.js";

const MINUTE = 60_000;

test("boarding points by draught, shortest transit first", () => {
  assert.equal(boardingPointFor({ draughtCm: 900 }).id, "PBP-S");
  assert.equal(boardingPointFor({ draughtCm: 901 }).id, "PBP-N");
  assert.equal(boardingPointFor({ draughtCm: 1_600 }).id, "PBP-D");
  assert.equal(boardingPointFor({ draughtCm: 2_600 }), null);
  assert.deepEqual(usablePoints({ draughtCm: 800 }).map((p) => p.id), ["PBP-S", "PBP-N", "PBP-D"]);
  assert.equal(boardingTime(T0, { transitMinutes: 55 }), T0 - 55 * MINUTE);
});

test("a job is transit plus manoeuvre; a shift has no transit", () => {
  assert.equal(jobMinutes({ movement: "in", boardingPointId: "PBP-N" }, "L"), 100);
  assert.equal(jobMinutes({ movement: "shift" }, "XL"), 60);
});

test("rest after a job keeps the pilot off the next one", () => {
  const done = { start: T0, end: T0 + 100 * MINUTE, sizeClass: "L", bookingId: "PBK-000001" };
  const tooSoon = { start: done.end + 60 * MINUTE, end: done.end + 120 * MINUTE, sizeClass: "S" };
  const rested = { start: done.end + 90 * MINUTE, end: done.end + 150 * MINUTE, sizeClass: "S" };
  assert.equal(restConflict([done], tooSoon), done);
  assert.equal(restConflict([done], rested), null);
  assert.equal(dutyMinutesAround([done], rested), 160);
});

test("one booking per call and movement, under the vessel's lock", async () => {
  const { vessels, call } = await withCall();
  const at = call.eta - HOUR;
  const booking = await vessels.bookPilot({ callId: call.id, movement: "in", at, boardingPointId: "PBP-N" });
  assert.equal(booking.vesselId, call.vesselId);
  await assert.rejects(vessels.bookPilot({ callId: call.id, movement: "in", at, boardingPointId: "PBP-N" }), /already has a in pilot/);
  await assert.rejects(vessels.bookPilot({ callId: call.id, movement: "out", at: call.eta - 1, boardingPointId: "PBP-N" }), /after the ETA/);
  await vessels.cancelPilotBooking(booking.id);
  const again = await vessels.bookPilot({ callId: call.id, movement: "in", at, boardingPointId: "PBP-N" });
  assert.equal(again.id, "PBK-000002");
});

test("bookings for two vessels do not wait for each other; one vessel's do", async () => {
  const { ctx, vessels, call } = await withCall();
  const other = await vessels.registerVessel(vesselInput({ imo: IMO.bulker, name: "Cabo Star" }));
  const otherCall = await vessels.declareCall(callInput(other.id));
  const both = await Promise.all([
    vessels.bookPilot({ callId: call.id, movement: "in", at: call.eta - HOUR, boardingPointId: "PBP-N" }),
    vessels.bookPilot({ callId: otherCall.id, movement: "in", at: otherCall.eta - HOUR, boardingPointId: "PBP-N" }),
    vessels.bookPilot({ callId: call.id, movement: "out", at: call.etd - HOUR, boardingPointId: "PBP-N" }),
  ]);
  assert.deepEqual(both.map((b) => b.id), ["PBK-000001", "PBK-000002", "PBK-000003"]);
  assert.equal(ctx.locks.isLocked(`vessel:${call.vesselId}`), false);
});

test("assignment needs a licence and a free place on the booking", async () => {
  const { vessels, call } = await withCall();
  const junior = vessels.addPilot({ name: "Rui Costa", licence: "M" });
  const senior = vessels.addPilot({ name: "Ana Lobo", licence: "XL" });
  const booking = await vessels.bookPilot({ callId: call.id, movement: "in", at: call.eta - HOUR, boardingPointId: "PBP-N" });
  await assert.rejects(vessels.assignPilot({ callId: call.id, movement: "in", pilotId: junior.id }), /holds M/);
  const assigned = await vessels.assignPilot({ callId: call.id, movement: "in", pilotId: senior.id });
  assert.deepEqual(assigned.pilotIds, [senior.id]);
  await assert.rejects(vessels.assignPilot({ callId: call.id, movement: "in", pilotId: senior.id }), /already on booking/);
  const candidates = vessels.pilotCandidates(assigned);
  assert.equal(candidates.sizeClass, "L");
  assert.deepEqual(candidates.free, []);
  assert.equal(booking.pilotIds.length, 0);
});

test("a pilot still resting is refused the next job", async () => {
  const { vessels, vessel, call } = await withCall();
  const pilot = vessels.addPilot({ name: "Ana Lobo", licence: "XL" });
  const nextCall = await vessels.declareCall(callInput(vessel.id, { voyage: "043S", eta: call.etd, etd: call.etd + DAY }));
  const inAt = call.eta - HOUR;
  await vessels.bookPilot({ callId: call.id, movement: "in", at: inAt, boardingPointId: "PBP-N" });
  await vessels.bookPilot({ callId: nextCall.id, movement: "in", at: inAt + 2 * HOUR, boardingPointId: "PBP-N" });
  await vessels.assignPilot({ callId: call.id, movement: "in", pilotId: pilot.id });
  await assert.rejects(vessels.assignPilot({ callId: nextCall.id, movement: "in", pilotId: pilot.id }), /rest after booking PBK-000001/);
});
