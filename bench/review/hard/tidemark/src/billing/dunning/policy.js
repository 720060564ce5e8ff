// When an overdue invoice gets its next reminder. The first comes `graceDays` after the due date;
// each later one `graceDays` after the last, up to `maxLevel` reminders (the last is the final
// notice before the account goes to the port's lawyers).

import { ValidationError } from "../../core/errors.js";
import { DAY } from "../../core/time.js";

export const MAX_LEVEL = 3;

export const LEVEL_NAMES = Object.freeze({ 1: "reminder", 2: "second reminder", 3: "final notice" });

export function createDunningPolicy({ graceDays, maxLevel = MAX_LEVEL }) {
  if (!Number.isInteger(graceDays) || graceDays < 0) throw new ValidationError("graceDays", "must be a whole number of days");
  const graceMs = graceDays * DAY;

  /** The time from which the invoice's next reminder may go out. */
  function nextReminderAt(invoice) {
    return invoice.reminderLevel === 0 ? invoice.dueAt + graceMs : invoice.remindedAt + graceMs;
  }

  const isDue = (invoice, now) => invoice.reminderLevel < maxLevel && now >= nextReminderAt(invoice);

  /** Whole days past the due date (0 until the due date has passed). */
  const daysOverdue = (invoice, now) => (now <= invoice.dueAt ? 0 : Math.floor((now - invoice.dueAt) / DAY));

  return { graceDays, maxLevel, nextReminderAt, isDue, daysOverdue, levelName: (level) => LEVEL_NAMES[level] ?? `reminder ${level}` };
}
