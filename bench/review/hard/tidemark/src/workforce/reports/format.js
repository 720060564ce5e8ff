// Reports as fixed-width text for the weekly e-mail. Minutes print as h:mm.

export function hm(minutes) {
  if (minutes === null || minutes === undefined) return "-";
  const sign = minutes < 0 ? "-" : "";
  const abs = Math.abs(Math.round(minutes));
  return `${sign}${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, "0")}`;
}

export function table(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const fmt = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join("  ").trimEnd();
  return [fmt(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(fmt)].join("\n");
}

export function hoursTable(rows, labelOf = (id) => id) {
  return table(
    ["worker", "rostered", "paid", "overtime", "night"],
    rows.map((r) => [labelOf(r.workerId), hm(r.rosteredMinutes), hm(r.paidMinutes), hm(r.overtimeMinutes), hm(r.nightMinutes)]),
  );
}

export function fatigueTable(rows, labelOf = (id) => id) {
  return table(
    ["worker", "shifts", "worked", "longest", "shortest rest", "breaches"],
    rows.map((r) => [labelOf(r.workerId), r.shifts, hm(r.workedMinutes), hm(r.longestShiftMinutes), hm(r.shortestRestMinutes), r.breaches.join(",") || "-"]),
  );
}
