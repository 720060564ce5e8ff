// The workforce module: workers, certificates, gangs, the roster of shifts, leave, timesheets,
// pay lines and the reports built on them. createWorkforce(ctx, deps) wires the parts; deps is
// described in ports.js. start() schedules the daily jobs and stop() cancels them.

import { checkPorts } from "./ports.js";
import { createStores, loadRecords } from "./stores.js";
import { createLifecycle } from "./lifecycle.js";
import { createWorkerRegistry } from "./workers/registry.js";
import { listWorkers } from "./workers/listing.js";
import { importWorkers } from "./workers/import.js";
import { createCertificateRegistry } from "./certificates/registry.js";
import { createExpiryWatch } from "./certificates/expiry-watch.js";
import { createGangRegistry } from "./gangs/registry.js";
import { createLeaveRegistry } from "./leave/registry.js";
import { createEligibility } from "./roster/eligibility.js";
import { createBooking } from "./roster/book.js";
import { createAssignWorker } from "./roster/assign-worker.js";
import { createAssignGang } from "./roster/assign-gang.js";
import { createRelease } from "./roster/release.js";
import { createRosterDay } from "./roster/day.js";
import { createPublication } from "./roster/publication.js";
import { shiftsOf } from "./shifts/calendar.js";
import { createTimesheets } from "./timesheets/registry.js";
import { importClockExport } from "./timesheets/import.js";
import { createSkillIndex } from "./availability/skill-index.js";
import { createAvailability } from "./availability/query.js";
import { payslip } from "./pay/payslip.js";
import { hoursReport } from "./reports/hours.js";
import { fatigueReport } from "./reports/fatigue.js";

export function createWorkforce(ctx, deps) {
  const ports = checkPorts(deps);
  const stores = createStores();
  const life = createLifecycle(ctx.log);

  const workers = createWorkerRegistry({ ctx, stores });
  const certificates = createCertificateRegistry({ ctx, stores, workers });
  const gangs = createGangRegistry({ ctx, stores });
  const leave = createLeaveRegistry({ ctx, stores, workers });
  const eligibility = createEligibility({ ctx, stores });
  const booking = createBooking({ ctx, stores, eligibility });
  const release = createRelease({ ctx, stores });
  const rosterOfDay = createRosterDay({ stores, ports, workers });
  const publication = createPublication({ ctx, stores, life, rosterOfDay });
  const expiry = createExpiryWatch({ ctx, stores, life });
  const timesheets = createTimesheets({ ctx, stores, workers });
  const skillIndex = createSkillIndex({ ctx, stores, life });
  const availability = createAvailability({ stores, eligibility, skillIndex });

  return {
    ...workers,
    listWorkers: (query) => listWorkers(stores, ctx.config, query),
    importWorkers: (text) => importWorkers(workers, text),
    ...certificates,
    ...gangs,
    ...leave,
    checkEligibility: (workerId, skill, span) => eligibility.check(workers.getWorker(workerId), skill, span),
    assignWorker: createAssignWorker({ ctx, ports, workers, booking }),
    assignGang: createAssignGang({ ctx, ports, workers, gangs, eligibility, booking }),
    ...release,
    findShift: (id) => stores.shifts.find(id),
    getShift: (id) => stores.shifts.get(id),
    workerCalendar: (workerId, window) => shiftsOf(stores.shifts, workerId, window),
    rosterOfDay,
    publishRoster: publication.publish,
    latestPublication: publication.latestFor,
    ...timesheets,
    importClockExport: (text, options) => importClockExport({ workers, timesheets }, text, options),
    ...availability,
    payslip: (workerId, period) => payslip(stores, workerId, period),
    hoursReport: (period) => hoursReport(stores, period),
    fatigueReport: (period) => fatigueReport(ctx.config, stores, period),
    checkExpiringCertificates: expiry.check,
    load: (table, records) => loadRecords(stores, table, records),
    start() {
      skillIndex.attach();
      expiry.start();
      publication.start();
    },
    stop: () => life.stopAll(),
  };
}
