// A booking of a berth for a vessel's stay. The stay is the half-open interval [start, end): the
// vessel is alongside from start and gone at end, so the next booking may start at that end.
// A tentative booking is a hold that lapses at holdUntil unless confirmed.

import { ValidationError } from "../../core/errors.js";
import { interval } from "../../core/time.js";
import { assertWhole } from "../../core/units.js";
import { required } from "../../core/validate.js";
import { assertVesselType } from "./vesselTypes.js";

export const BOOKING_STATUSES = Object.freeze(["tentative", "confirmed", "cancelled", "completed"]);

const ACTIVE = new Set(["tentative", "confirmed"]);

/** Active bookings occupy their berth; cancelled and completed ones no longer do. */
export const isActive = (booking) => ACTIVE.has(booking.status);

export const isHold = (booking) => booking.status === "tentative";

export const stayOf = (booking) => ({ start: booking.start, end: booking.end });

/** The record a new booking is stored as; `vessel` is what the vessels port gave for the call. */
export function bookingRecord({ id, berth, vessel, callId, start, end, status, holdUntil, createdAt }) {
  required({ id, callId }, ["id", "callId"]);
  const stay = interval(start, end);
  assertWhole(vessel.lengthCm, "lengthCm");
  assertWhole(vessel.draughtCm, "draughtCm");
  assertVesselType(vessel.type);
  if (status !== "tentative" && status !== "confirmed") throw new ValidationError("status", "a new booking is tentative or confirmed");
  if (status === "tentative" && !(holdUntil > createdAt)) throw new ValidationError("holdUntil", "a hold needs an expiry after now");
  return {
    id,
    berthId: berth.id,
    quayId: berth.quayId,
    vesselId: vessel.id,
    callId,
    start: stay.start,
    end: stay.end,
    lengthCm: vessel.lengthCm,
    draughtCm: vessel.draughtCm,
    vesselType: vessel.type,
    status,
    holdUntil: status === "tentative" ? holdUntil : null,
    cancelReason: null,
    createdAt,
  };
}
