// Two vessels moored on one quay at the same time keep a fender gap between them: clear water of
// at least berthing.fenderGapCm between the stern of one and the bow of the next. Vessels on
// different quays never touch, and the same berth is the overlap check's business.

import { overlaps } from "../../core/time.js";
import { isActive, stayOf } from "../records/booking.js";
import { gapBetweenCm, vesselSpan } from "../quays/layout.js";

/**
 * Bookings on the candidate's quay, on other berths and overlapping its stay, that would lie
 * closer than the fender gap. `berthOf(id)` gives a berth record.
 */
export function fenderConflicts(ctx, candidate, quayBookings, berthOf) {
  const minGapCm = ctx.config.berthing.fenderGapCm;
  const span = vesselSpan(candidate.berth, candidate.lengthCm);
  const found = [];
  for (const other of quayBookings) {
    if (other.id === candidate.ignoreId || other.berthId === candidate.berth.id || !isActive(other)) continue;
    if (other.quayId !== candidate.berth.quayId || !overlaps(stayOf(other), candidate.stay)) continue;
    const gapCm = gapBetweenCm(span, vesselSpan(berthOf(other.berthId), other.lengthCm));
    if (gapCm < minGapCm) found.push({ bookingId: other.id, berthId: other.berthId, gapCm });
  }
  return found;
}

/**
 * The longest vessel a berth could take alongside the bookings on its quay during a stay without
 * breaking the fender gap to the next vessel south; null when nothing lies south of it then.
 */
export function roomSouthCm(ctx, berth, stay, quayBookings, berthOf) {
  let room = null;
  for (const other of quayBookings) {
    if (other.berthId === berth.id || !isActive(other) || !overlaps(stayOf(other), stay)) continue;
    const otherBerth = berthOf(other.berthId);
    if (otherBerth.quayId !== berth.quayId || otherBerth.fromCm <= berth.fromCm) continue;
    const free = otherBerth.fromCm - berth.fromCm - ctx.config.berthing.fenderGapCm;
    if (room === null || free < room) room = free;
  }
  return room;
}
