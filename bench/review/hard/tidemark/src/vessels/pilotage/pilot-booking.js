// Pilot bookings: one per call and movement (in, out, or a shift between berths). A booking is
// written under its vessel's lock ("vessel:<id>"), the same key as the vessel's calls, so a booking
// and a change to the call it serves never interleave.

import { ConflictError, ValidationError } from "../../core/errors.js";
import { idSequence } from "../../core/ids.js";
import { createStore } from "../../core/store.js";
import { oneOf } from "../../core/validate.js";
import { getBoardingPoint } from "./boarding-points.js";
import { MOVEMENTS } from "./job-duration.js";

/** deps.calls: the call service (getCall). */
export function createPilotBookings(ctx, { calls }) {
  const store = createStore("pilot booking");
  const ids = idSequence("PBK");

  const findBooking = (callId, movement) =>
    store.list((b) => b.callId === callId && b.movement === movement && b.state === "booked")[0] ?? null;

  function checkTime(call, movement, at) {
    if (!Number.isSafeInteger(at)) throw new ValidationError("at", "must be epoch milliseconds");
    if (movement === "in" && at >= call.etd) throw new ValidationError("at", "an inbound pilot is booked before the ETD");
    if (movement === "out" && at < call.eta) throw new ValidationError("at", "an outbound pilot is booked after the ETA");
  }

  /** Books a pilot for a call's movement. Inbound and outbound bookings name a boarding point. */
  async function book({ callId, movement, at, boardingPointId = null }) {
    oneOf(movement, MOVEMENTS, "movement");
    const call = calls.getCall(callId);
    if (call.state === "departed" || call.state === "cancelled") throw new ConflictError(`call ${callId} is ${call.state}`);
    checkTime(call, movement, at);
    if (movement !== "shift") getBoardingPoint(boardingPointId);
    return ctx.locks.withLock(`vessel:${call.vesselId}`, async () => {
      if (findBooking(callId, movement)) throw new ConflictError(`call ${callId} already has a ${movement} pilot booked`);
      const booking = store.insert({
        id: ids.next(),
        callId,
        vesselId: call.vesselId,
        movement,
        at,
        boardingPointId: movement === "shift" ? null : boardingPointId,
        pilotIds: [],
        state: "booked",
        bookedAt: ctx.clock.now(),
      });
      ctx.events.publish("pilot.booked", { bookingId: booking.id, callId, movement, at });
      return booking;
    });
  }

  async function cancelBooking(id) {
    const booking = store.get(id);
    return ctx.locks.withLock(`vessel:${booking.vesselId}`, async () => {
      const next = store.update(id, (draft) => ({ ...draft, state: "cancelled" }));
      ctx.events.publish("pilot.booking_cancelled", { bookingId: id, callId: next.callId, pilotIds: next.pilotIds });
      return next;
    });
  }

  /** Adds a pilot to a booking. The caller holds the vessel's lock (pilot-assignment.js). */
  function addPilot(id, pilotId) {
    return store.update(id, (draft) => ({ ...draft, pilotIds: [...draft.pilotIds, pilotId] }));
  }

  return {
    book,
    cancelBooking,
    addPilot,
    findBooking,
    getBooking: (id) => store.get(id),
    bookingsForCall: (callId) => store.list((b) => b.callId === callId),
    bookingsForVessel: (vesselId) => store.list((b) => b.vesselId === vesselId),
  };
}
