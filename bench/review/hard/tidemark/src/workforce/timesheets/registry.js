// Timesheets from the gate clock: submitted with their flags, approved by a foreman. An approved
// timesheet is what pay is computed from; it is never changed afterwards.

import { ConflictError } from "../../core/errors.js";
import { EVENTS } from "../events.js";
import { newTimesheet } from "../records/timesheet.js";
import { flagsFor } from "./flags.js";

export function createTimesheets({ ctx, stores, workers }) {
  const { timesheets, ids } = stores;

  function submitTimesheet(input) {
    const worker = workers.getWorker(input?.workerId);
    const shift = input.shiftId ? stores.shifts.get(input.shiftId) : null;
    const record = newTimesheet({ ...input, skill: input.skill ?? shift?.skill }, ids.timesheets.next(), ctx.clock.now());
    const flags = flagsFor(ctx.config, record, { shift });
    const sheet = timesheets.insert({ ...record, flags });
    ctx.events.publish(EVENTS.timesheetSubmitted, { timesheetId: sheet.id, workerId: worker.id, flags });
    return sheet;
  }

  function approveTimesheet(id, foremanId) {
    const foreman = workers.getWorker(foremanId);
    if (!foreman.skills.includes("foreman")) throw new ConflictError(`${foremanId} cannot approve timesheets`);
    const current = timesheets.get(id);
    if (current.status !== "submitted") throw new ConflictError(`timesheet ${id} is ${current.status}`);
    if (current.workerId === foremanId) throw new ConflictError("a foreman does not approve their own timesheet");
    const sheet = timesheets.update(id, (t) => ({ ...t, status: "approved", approvedBy: foremanId }), current.version);
    ctx.events.publish(EVENTS.timesheetApproved, { timesheetId: id, workerId: sheet.workerId });
    return sheet;
  }

  const timesheetsOf = (workerId) => timesheets.list((t) => t.workerId === workerId);

  return { submitTimesheet, approveTimesheet, timesheetsOf, findTimesheet: (id) => timesheets.find(id) };
}
