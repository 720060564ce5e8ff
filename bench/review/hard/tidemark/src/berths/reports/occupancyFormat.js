// Occupancy as the harbour master's weekly table: one line per berth, then the quay averages.
//   B1-1  Q1   72,5 %   5 220 min

import { formatPermille } from "../formatters/metres.js";

const group = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, " ");

export function formatOccupancyRow(row) {
  return `${row.berthId.padEnd(6)}${row.quayId.padEnd(5)}${formatPermille(row.permille).padStart(8)}  ${group(row.occupiedMinutes).padStart(8)} min`;
}

export function formatOccupancyTable(rows, quays = []) {
  const lines = ["berth quay   share   alongside", ...rows.map(formatOccupancyRow)];
  if (quays.length > 0) {
    lines.push("");
    for (const q of quays) lines.push(`${q.quayId} average ${formatPermille(q.permille)} over ${q.berths} berths`);
  }
  return lines.join("\n");
}

/** Rows above a share, for the congestion warning the harbour master gets. */
export const busiest = (rows, permille) => rows.filter((r) => r.permille >= permille);

/** The same rows as CSV for the port authority's statistics office (share as a plain permille). */
export function occupancyCsv(rows) {
  const lines = ["berth,quay,occupied_minutes,share_permille"];
  for (const r of rows) lines.push([r.berthId, r.quayId, r.occupiedMinutes, r.permille].join(","));
  return lines.join("\n");
}
