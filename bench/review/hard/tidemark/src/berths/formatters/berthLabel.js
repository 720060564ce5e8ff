// Labels for berths on the planners' screen and the sheets: "B1-2 Q1 200,00 m · 12,00 m ·
// container, general".

import { berthLengthCm } from "../records/berth.js";
import { formatCm } from "./metres.js";
import { timeLabel } from "./timeLabel.js";

export function berthLabel(berth) {
  return `${berth.id} ${berth.quayId} ${formatCm(berthLengthCm(berth))} · ${formatCm(berth.depthCm)} · ${berth.vesselTypes.join(", ")}`;
}

/** A quay and its berths from north to south, one per line. */
export function quayLabel(quay, berths) {
  const head = `${quay.id} ${quay.name} ${formatCm(quay.lengthCm)}, ${quay.bollards.length} bollards`;
  return [head, ...berths.map((b) => `  ${berthLabel(b)}`)].join("\n");
}

/** A line of the harbour master's quay board from a berth status (plan/berthStatus.js). */
export function statusLabel(status) {
  if (status.state === "alongside") return `${status.berthId} ${status.vesselId} alongside until ${timeLabel(status.until)}`;
  if (status.state === "closed") return `${status.berthId} closed until ${timeLabel(status.until)} (${status.reason})`;
  if (status.until === null) return `${status.berthId} free`;
  return `${status.berthId} free until ${timeLabel(status.until)} (${status.vesselId})`;
}

/** The whole board of a quay: its head line and one status line per berth. */
export function quayBoard(quay, statuses) {
  return [`${quay.id} ${quay.name}`, ...statuses.map((s) => `  ${statusLabel(s)}`)].join("\n");
}
