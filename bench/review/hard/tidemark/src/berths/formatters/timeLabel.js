// Short time labels for berth sheets: "02/03 14:30" in UTC, the port's working time. Stays are
// printed "02/03 14:30 → 03/03 06:00", the end being the minute the vessel is gone.

const pad = (n) => String(n).padStart(2, "0");

export function timeLabel(t) {
  const d = new Date(t);
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

export function stayLabel(stay) {
  return `${timeLabel(stay.start)} → ${timeLabel(stay.end)}`;
}

/** "2 d 4 h", "5 h 30 min": a stay's length for the sheet. */
export function durationLabel(minutes) {
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = Math.round(minutes % 60);
  const parts = [];
  if (days) parts.push(`${days} d`);
  if (hours) parts.push(`${hours} h`);
  if (mins || parts.length === 0) parts.push(`${mins} min`);
  return parts.join(" ");
}
