// Reads the gate clock's daily export, one clocking a line:
//   ALV-0412;2026-03-02T05:58:00Z;2026-03-02T14:07:00Z;30;SHF-000012
// registration, clock-in, clock-out (ISO, UTC), unpaid break in minutes, the shift (may be empty).
// ISO times become epoch ms here; the rest of the module never sees a string time.

import { parseIso } from "../../core/time.js";

export function parseClockExport(text) {
  const rows = [];
  const errors = [];
  String(text)
    .split(/\r?\n/)
    .forEach((raw, index) => {
      const line = raw.trim();
      if (!line || line.startsWith("#")) return;
      const [registrationNo, clockInText, clockOutText, breakText = "0", shiftId = ""] = line.split(";").map((f) => f.trim());
      try {
        const breakMinutes = Number(breakText);
        if (!Number.isInteger(breakMinutes) || breakMinutes < 0) throw new Error(`bad break ${breakText}`);
        rows.push({
          registrationNo,
          clockIn: parseIso(clockInText, "clockIn"),
          clockOut: parseIso(clockOutText, "clockOut"),
          breakMinutes,
          shiftId: shiftId || null,
        });
      } catch (error) {
        errors.push({ line: index + 1, message: error.message });
      }
    });
  return { rows, errors };
}

/** Submits every row whose worker is known; rows without a shift need the skill they worked. */
export function importClockExport({ workers, timesheets }, text, { defaultSkill = "checker" } = {}) {
  const { rows, errors } = parseClockExport(text);
  const submitted = [];
  for (const row of rows) {
    const worker = workers.findByRegistration(row.registrationNo);
    if (!worker) {
      errors.push({ registrationNo: row.registrationNo, message: "unknown registration" });
      continue;
    }
    const { registrationNo, ...rest } = row;
    const skill = row.shiftId ? undefined : defaultSkill;
    submitted.push(timesheets.submitTimesheet({ ...rest, workerId: worker.id, skill }));
  }
  return { submitted, errors };
}
