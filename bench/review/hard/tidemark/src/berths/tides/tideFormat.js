// Tide lines for the pilots' board: "LW 04:12 0,85 m", heights printed in metres with a comma,
// the port's habit. Only for display: nothing reads these back.

import { startOfDay } from "../../core/time.js";
import { formatCm } from "../formatters/metres.js";

const pad = (n) => String(n).padStart(2, "0");

export function clockTime(t) {
  const d = new Date(t);
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

export function formatExtreme(x) {
  return `${x.kind === "high" ? "HW" : "LW"} ${clockTime(x.at)} ${formatCm(x.heightCm)}`;
}

/** The day's extremes as board lines, grouped under the UTC date. */
export function tideBoard(extremes) {
  const days = new Map();
  for (const x of extremes) {
    const day = new Date(startOfDay(x.at)).toISOString().slice(0, 10);
    if (!days.has(day)) days.set(day, []);
    days.get(day).push(formatExtreme(x));
  }
  return [...days.entries()].map(([day, lines]) => `${day}: ${lines.join(" | ")}`);
}
