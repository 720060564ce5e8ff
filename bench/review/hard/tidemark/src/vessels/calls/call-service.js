// Port calls: one visit of a registered vessel to Alvarim. Every change to a call holds its
// vessel's lock ("vessel:<id>"), so two agents declaring or revising one vessel's calls at once
// cannot both pass the overlap check. Events go out after the store write.

import { ConflictError, ValidationError } from "../../core/errors.js";
import { overlaps } from "../../core/time.js";
import { assertTransition, isOpen } from "./call-states.js";
import { checkPlannedStay, validateCallInput } from "./call-record.js";
import { createCallStore, newCall } from "./call-store.js";
import { plannedStay } from "./stay.js";

const EVENT_OF = Object.freeze({
  arrived: "call.arrived",
  berthed: "call.berthed",
  departed: "call.departed",
  cancelled: "call.cancelled",
});

/**
 * deps.register: the vessel register (getVessel). deps.blocked: the blocked-vessel list
 * (assertNotBlocked). deps.berths (optional): { findBerth(id) -> { id, depthCm } | null }.
 */
export function createCallService(ctx, { register, blocked, berths }) {
  const { store, ids } = createCallStore();
  const vesselKey = (vesselId) => `vessel:${vesselId}`;

  const findCall = (id) => store.find(id);
  const getCall = (id) => store.get(id);
  const callsForVessel = (vesselId) => store.list((call) => call.vesselId === vesselId);
  const allCalls = (where) => store.list(where);

  function assertFree(vesselId, stay, exceptId = null) {
    for (const other of callsForVessel(vesselId)) {
      if (other.id === exceptId || !isOpen(other.state)) continue;
      if (overlaps(plannedStay(other), stay)) throw new ConflictError(`vessel ${vesselId} already has call ${other.id} in that window`);
    }
  }

  async function createCall(input) {
    const vessel = register.getVessel(input.vesselId);
    const fields = validateCallInput(input, ctx);
    blocked.assertNotBlocked(vessel.imo, { start: fields.eta, end: fields.etd });
    return ctx.locks.withLock(vesselKey(vessel.id), async () => {
      assertFree(vessel.id, { start: fields.eta, end: fields.etd });
      if (callsForVessel(vessel.id).some((call) => call.voyage === fields.voyage)) {
        throw new ConflictError(`voyage ${fields.voyage} of ${vessel.name} is already declared`);
      }
      const call = store.insert(newCall(ids.next(), fields, ctx.clock.now()));
      ctx.events.publish("call.created", { callId: call.id, vesselId: vessel.id, eta: call.eta });
      return call;
    });
  }

  /** Runs fn under the lock of the vessel the call belongs to. */
  function underVesselLock(callId, fn) {
    const call = store.get(callId);
    return ctx.locks.withLock(vesselKey(call.vesselId), fn);
  }

  function transition(id, to, patch = {}) {
    const call = store.get(id);
    assertTransition(call.state, to);
    const at = ctx.clock.now();
    const next = store.update(id, (draft) => ({ ...draft, ...patch, state: to, history: [...draft.history, { state: to, at }] }), call.version);
    ctx.events.publish(EVENT_OF[to], { callId: id, vesselId: next.vesselId, at });
    return next;
  }

  const arrive = (id) => underVesselLock(id, async () => transition(id, "arrived", { arrivedAt: ctx.clock.now() }));

  function berth(id, berthId) {
    return underVesselLock(id, async () => {
      const call = store.get(id);
      if (berths) {
        const target = berths.findBerth(berthId);
        if (!target) throw new ValidationError("berthId", `no berth ${berthId}`);
        const vessel = register.getVessel(call.vesselId);
        const clearanceCm = target.depthCm - vessel.draughtCm;
        if (clearanceCm < ctx.config.berthing.ukcMinCm) {
          throw new ConflictError(`${berthId} leaves ${clearanceCm} cm under the keel of ${vessel.name}`);
        }
      }
      return transition(id, "berthed", { berthId, berthedAt: ctx.clock.now() });
    });
  }

  const depart = (id) => underVesselLock(id, async () => transition(id, "departed", { departedAt: ctx.clock.now() }));

  function cancel(id, reason) {
    if (!reason || !String(reason).trim()) throw new ValidationError("reason", "a cancellation needs a reason");
    return underVesselLock(id, async () => transition(id, "cancelled", { cancelledAt: ctx.clock.now(), cancelReason: String(reason).trim() }));
  }

  /** A new ETA/ETD from the agent. Only an expected call can move; the same checks as a new call apply. */
  function reviseEta(id, { eta, etd }) {
    return underVesselLock(id, async () => {
      const call = store.get(id);
      if (call.state !== "expected") throw new ConflictError(`call ${id} is ${call.state}; its ETA is history`);
      const nextEtd = etd ?? call.etd + (eta - call.eta);
      checkPlannedStay(eta, nextEtd, ctx);
      assertFree(call.vesselId, { start: eta, end: nextEtd }, id);
      const next = store.update(id, (draft) => ({ ...draft, eta, etd: nextEtd, etaRevisions: draft.etaRevisions + 1 }), call.version);
      ctx.events.publish("call.eta_revised", { callId: id, vesselId: call.vesselId, previousEta: call.eta, eta });
      return next;
    });
  }

  return { createCall, arrive, berth, depart, cancel, reviseEta, findCall, getCall, callsForVessel, allCalls };
}
