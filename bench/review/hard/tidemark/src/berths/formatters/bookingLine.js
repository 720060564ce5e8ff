// One line of the daily berth sheet: "BKG-000004 confirmed B1-2 (Q1) VSL-000001 02/03 06:00 →
// 02/03 18:00 180,00 m / 12,50 m". The sheet is read on the quay, so lengths are in metres.

import { formatCm } from "./metres.js";
import { stayLabel } from "./timeLabel.js";

export function formatBookingLine(booking, berth) {
  const where = berth ? `${berth.id} (${berth.quayId})` : booking.berthId;
  const size = `${formatCm(booking.lengthCm)} / ${formatCm(booking.draughtCm)}`;
  const hold = booking.status === "tentative" ? " hold" : "";
  return `${booking.id} ${booking.status}${hold} ${where} ${booking.vesselId} ${stayLabel(booking)} ${size}`;
}

/** The column header the sheet prints above its lines. */
export const BOOKING_LINE_HEADER = "booking status berth vessel stay length / draught";
