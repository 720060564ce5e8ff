// The texts of the port's notices. Times print in UTC with the "Z" so an agent abroad is not misled;
// lengths print in metres because that is what masters read.

import { cmToMetres } from "../../core/units.js";
import { toIso } from "../../core/time.js";

const hhmm = (t) => toIso(t).slice(0, 16).replace("T", " ") + "Z";

const TEMPLATES = Object.freeze({
  "call.berthed": (p) => ({
    subject: `${p.vesselName} berthed at ${p.berthId}`,
    text: `${p.vesselName} (${p.callId}) made fast at berth ${p.berthId} at ${hhmm(p.at)}.`,
  }),
  "call.departed": (p) => ({
    subject: `${p.vesselName} departed`,
    text: `${p.vesselName} (${p.callId}) left berth ${p.berthId} at ${hhmm(p.at)}.`,
  }),
  "pilot.ordered": (p) => ({
    subject: `Pilot for ${p.vesselName} at ${p.boardingPoint}`,
    text: `Pilot boards ${p.vesselName} (draft ${cmToMetres(p.draftCm).toFixed(2)} m) at ${p.boardingPoint}, ${hhmm(p.at)}.`,
  }),
  "invoice.issued": (p) => ({
    subject: `Invoice ${p.invoiceId}`,
    text: `Invoice ${p.invoiceId} for ${p.vesselName} is issued, due ${hhmm(p.dueAt).slice(0, 10)}.`,
  }),
});

export const templateTypes = () => Object.keys(TEMPLATES);

/** { subject, text } for an event; an SMS gets the subject folded into its text. */
export function render(type, payload, channel = "email") {
  const template = TEMPLATES[type];
  if (!template) throw new Error(`no template for ${type}`);
  const { subject, text } = template(payload);
  return channel === "sms" ? { subject: null, text: `${subject}: ${text}`.slice(0, 320) } : { subject, text };
}
