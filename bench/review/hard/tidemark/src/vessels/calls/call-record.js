// A declared port call: vessel, voyage, agent and the planned stay from ETA to ETD (epoch ms). The
// planned stay is the half-open interval [eta, etd). Checks that need the clock or the settings take
// ctx; the vessel and agent are checked by the service, which can look them up.

import { ValidationError } from "../../core/errors.js";
import { DAY, MINUTE } from "../../core/time.js";
import { required } from "../../core/validate.js";
import { assertVoyage } from "./voyage.js";

function epochMs(value, field) {
  if (!Number.isSafeInteger(value) || value <= 0) throw new ValidationError(field, "must be epoch milliseconds");
  return value;
}

/** The planned stay must be at least berthing.minStayMinutes and start within the booking horizon. */
export function checkPlannedStay(eta, etd, ctx) {
  const { minStayMinutes, bookingHorizonDays } = ctx.config.berthing;
  if (etd <= eta) throw new ValidationError("etd", "must be after the ETA");
  if (etd - eta < minStayMinutes * MINUTE) throw new ValidationError("etd", `a stay is at least ${minStayMinutes} minutes`);
  if (eta > ctx.clock.now() + bookingHorizonDays * DAY) throw new ValidationError("eta", `more than ${bookingHorizonDays} days ahead`);
}

export function validateCallInput(input, ctx) {
  required(input, ["vesselId", "voyage", "eta", "etd"]);
  const eta = epochMs(input.eta, "eta");
  const etd = epochMs(input.etd, "etd");
  checkPlannedStay(eta, etd, ctx);
  return {
    vesselId: input.vesselId,
    voyage: assertVoyage(input.voyage),
    agentId: input.agentId ?? null,
    lastPort: input.lastPort ? String(input.lastPort).trim().toUpperCase() : null,
    nextPort: input.nextPort ? String(input.nextPort).trim().toUpperCase() : null,
    eta,
    etd,
  };
}
