// Which pilots could take a job: the booking desk's list. A pilot is offered when licensed for the
// vessel's class and the job fits the rest rules; the list is sorted by how long the pilot has
// been idle, longest first, so the work spreads over the station.

import { sizeClassOf } from "../register/size-class.js";
import { jobInterval } from "./job-duration.js";
import { restViolation } from "./rest-rules.js";

/** deps: register (getVessel), roster (pilotsFor), assignments (jobsOf). */
export function createPilotAvailability(ctx, { register, roster, assignments }) {
  function lastJobEnd(pilotId) {
    const jobs = assignments.jobsOf(pilotId);
    return jobs.reduce((latest, job) => Math.max(latest, job.end), 0);
  }

  /** Pilots who could take `booking` for the vessel, idle longest first, with why the others cannot. */
  function candidatesFor(booking) {
    const vessel = register.getVessel(booking.vesselId);
    const sizeClass = sizeClassOf(vessel);
    const candidate = { ...jobInterval(booking, sizeClass), sizeClass, bookingId: booking.id };
    const free = [];
    const refused = [];
    for (const pilot of roster.pilotsFor(sizeClass)) {
      if (booking.pilotIds.includes(pilot.id)) continue;
      const why = restViolation(assignments.jobsOf(pilot.id), candidate, ctx.config);
      if (why) refused.push({ pilotId: pilot.id, why });
      else free.push({ pilotId: pilot.id, name: pilot.name, idleSince: lastJobEnd(pilot.id) });
    }
    free.sort((a, b) => a.idleSince - b.idleSince || (a.pilotId < b.pilotId ? -1 : 1));
    return { sizeClass, free, refused };
  }

  return { candidatesFor };
}
