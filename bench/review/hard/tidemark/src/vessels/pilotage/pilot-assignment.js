// Assigns pilots to booked movements. A pilot needs a licence for the vessel's size class and must
// have rested after the last job; class XL vessels take two pilots. The assignment holds the
// vessel's lock and the pilot's in one withLocks call, so two desks cannot give one pilot two jobs
// or one job three pilots.

import { ConflictError, ValidationError } from "../../core/errors.js";
import { createStore } from "../../core/store.js";
import { idSequence } from "../../core/ids.js";
import { licenceCovers, pilotsRequired, sizeClassOf } from "../register/size-class.js";
import { jobInterval } from "./job-duration.js";
import { restViolation } from "./rest-rules.js";

/** deps: register (getVessel), calls (getCall), roster (getPilot), bookings (findBooking, addPilot). */
export function createPilotAssignments(ctx, { register, calls, roster, bookings }) {
  const jobs = createStore("pilot job");
  const ids = idSequence("PJB");

  const jobsOf = (pilotId) => jobs.list((job) => job.pilotId === pilotId);

  async function assignPilot({ callId, movement, pilotId }) {
    const call = calls.getCall(callId);
    const pilot = roster.getPilot(pilotId);
    if (!pilot.active) throw new ConflictError(`${pilot.name} is not on the roster today`);
    return ctx.locks.withLocks([`vessel:${call.vesselId}`, `worker:${pilotId}`], async () => {
      const booking = bookings.findBooking(callId, movement);
      if (!booking) throw new ValidationError("movement", `call ${callId} has no ${movement} pilot booked`);
      const vessel = register.getVessel(call.vesselId);
      const sizeClass = sizeClassOf(vessel);
      if (!licenceCovers(pilot.licence, sizeClass)) throw new ConflictError(`${pilot.name} holds ${pilot.licence}; ${vessel.name} is class ${sizeClass}`);
      if (booking.pilotIds.includes(pilotId)) throw new ConflictError(`${pilot.name} is already on booking ${booking.id}`);
      if (booking.pilotIds.length >= pilotsRequired(sizeClass)) throw new ConflictError(`booking ${booking.id} has its pilots`);

      const candidate = { ...jobInterval(booking, sizeClass), sizeClass, bookingId: booking.id };
      const why = restViolation(jobsOf(pilotId), candidate, ctx.config);
      if (why) throw new ConflictError(`${pilot.name}: ${why}`);

      const job = jobs.insert({ id: ids.next(), pilotId, ...candidate });
      const next = bookings.addPilot(booking.id, pilotId);
      ctx.events.publish("pilot.assigned", { bookingId: booking.id, pilotId, jobId: job.id, start: job.start });
      return next;
    });
  }

  /** Drops a pilot's jobs for a cancelled booking, so the rest rules stop counting them. */
  function releaseJobs(bookingId) {
    const released = jobs.list((job) => job.bookingId === bookingId);
    for (const job of released) jobs.remove(job.id);
    return released.length;
  }

  return { assignPilot, releaseJobs, jobsOf };
}
