// Event names the workforce module publishes. Every one goes out after its store write, with the
// record's id in the payload; subscribers that need more read the store (it already holds the change).

export const EVENTS = Object.freeze({
  workerRegistered: "workforce.worker.registered",
  workerUpdated: "workforce.worker.updated",
  workerDeactivated: "workforce.worker.deactivated",
  certificateAdded: "workforce.certificate.added",
  certificateExpiring: "workforce.certificate.expiring",
  certificateRevoked: "workforce.certificate.revoked",
  gangFormed: "workforce.gang.formed",
  gangDisbanded: "workforce.gang.disbanded",
  shiftAssigned: "workforce.shift.assigned",
  shiftReleased: "workforce.shift.released",
  gangAssigned: "workforce.gang.assigned",
  leaveRequested: "workforce.leave.requested",
  leaveApproved: "workforce.leave.approved",
  leaveRejected: "workforce.leave.rejected",
  timesheetSubmitted: "workforce.timesheet.submitted",
  timesheetApproved: "workforce.timesheet.approved",
  rosterPublished: "workforce.roster.published",
});

/** The lock key of one worker; every change to a worker's shifts holds it. */
export const workerKey = (workerId) => `worker:${workerId}`;
