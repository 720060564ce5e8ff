// How far an agent's ETA has drifted. The harbour master wants every call that moved more than a
// tide (about six hours) flagged, and a count of revisions per agent for the monthly review.

import { HOUR, MINUTE } from "../../core/time.js";

export const SIGNIFICANT_SHIFT_MINUTES = 6 * 60;

/** Signed minutes between two ETAs: positive when the vessel comes later. */
export const shiftMinutes = (previousEta, eta) => Math.round((eta - previousEta) / MINUTE);

export const isSignificant = (previousEta, eta) => Math.abs(shiftMinutes(previousEta, eta)) >= SIGNIFICANT_SHIFT_MINUTES;

/**
 * Keeps the ETA revisions published as call.eta_revised, per call, for the review. start()
 * subscribes; stop() unsubscribes.
 */
export function createEtaLog(ctx) {
  const revisions = new Map();
  let off = null;

  function onRevised({ callId, previousEta, eta }) {
    const list = revisions.get(callId) ?? [];
    list.push({ at: ctx.clock.now(), previousEta, eta, shiftMinutes: shiftMinutes(previousEta, eta) });
    revisions.set(callId, list);
  }

  return {
    start() {
      off = ctx.events.subscribe("call.eta_revised", onRevised);
    },
    stop() {
      off?.();
      off = null;
    },
    revisionsOf: (callId) => [...(revisions.get(callId) ?? [])],
    /** Calls whose ETA moved by a tide or more in one revision. */
    significantShifts() {
      const out = [];
      for (const [callId, list] of revisions) {
        for (const r of list) if (isSignificant(r.previousEta, r.eta)) out.push({ callId, ...r });
      }
      return out;
    },
    /** Total hours of drift of one call, all revisions together. */
    driftHours: (callId) => (revisions.get(callId) ?? []).reduce((sum, r) => sum + Math.abs(r.eta - r.previousEta), 0) / HOUR,
  };
}
