// What a port call used, in the units the tariffs count: built from the call and its cargo
// through the ports in deps (see ../ports.js for their shapes).

import { chargeableDays, interval } from "../../core/time.js";

/** Reefer-days of a call: each plug-in counts its started days; a box still plugged counts to departure. */
export function reeferDaysOf(stays, departedAt) {
  let days = 0;
  for (const stay of stays) {
    const end = stay.unpluggedAt ?? departedAt;
    if (end <= stay.pluggedAt) continue;
    days += chargeableDays(interval(stay.pluggedAt, end));
  }
  return days;
}

export function usageForCall(call, deps) {
  const stay = interval(call.berthedAt, call.departedAt);
  const moves = deps.cargo.movesFor(call.id);
  const reeferStays = deps.cargo.reeferStaysFor(call.id);
  return {
    grossTonnage: call.grossTonnage,
    lengthCm: call.lengthCm,
    stay,
    moves: moves.length,
    reeferDays: reeferDaysOf(reeferStays, call.departedAt),
  };
}

/** The usage of a call the harbour master's sheet reports by hand (no cargo worked). */
export function usageForSheetRow(row) {
  return {
    grossTonnage: row.grossTonnage,
    lengthCm: row.lengthCm,
    stay: interval(row.arrivedAt, row.departedAt),
    moves: 0,
    reeferDays: 0,
  };
}
