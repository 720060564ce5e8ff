// Pilots' rest. After each job a pilot rests for a time set by the size class of the vessel just
// brought in or out; over any 24 hours a pilot's time on jobs may not exceed the workforce's
// maximum shift (workforce.maxShiftMinutes), the same limit the port applies to its other crews.

import { DAY, MINUTE, durationMinutes, intersection, overlaps } from "../../core/time.js";

export const REST_MINUTES = Object.freeze({ S: 30, M: 60, L: 90, XL: 120 });

export const restMinutesAfter = (sizeClass) => REST_MINUTES[sizeClass] ?? REST_MINUTES.XL;

/** The time a pilot is tied up by a job: the job itself and the rest after it. */
export const busyInterval = (job) => ({ start: job.start, end: job.end + restMinutesAfter(job.sizeClass) * MINUTE });

/** The pilot's earlier job that the new one would cut into (its job or its rest), or null. */
export function restConflict(jobs, candidate) {
  const wanted = busyInterval(candidate);
  return jobs.find((job) => overlaps(busyInterval(job), wanted)) ?? null;
}

/** Minutes on jobs in the 24 hours ending at the candidate's end, the candidate included. */
export function dutyMinutesAround(jobs, candidate) {
  const window = { start: candidate.end - DAY, end: candidate.end };
  let minutes = durationMinutes(candidate);
  for (const job of jobs) {
    const part = intersection(job, window);
    if (part) minutes += durationMinutes(part);
  }
  return minutes;
}

/** Null when the pilot may take the job; otherwise why not. */
export function restViolation(jobs, candidate, config) {
  const clash = restConflict(jobs, candidate);
  if (clash) return `rest after booking ${clash.bookingId} runs into this job`;
  const duty = dutyMinutesAround(jobs, candidate);
  if (duty > config.workforce.maxShiftMinutes) return `${duty} minutes on duty in 24 hours (limit ${config.workforce.maxShiftMinutes})`;
  return null;
}
