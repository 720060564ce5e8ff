// The calls table. Besides the declared fields a call keeps its state, the times it changed state
// and its berth once berthed; history lists every state with the time it was entered.

import { idSequence } from "../../core/ids.js";
import { createStore } from "../../core/store.js";

export function createCallStore() {
  const store = createStore("call");
  const ids = idSequence("CAL");
  return { store, ids };
}

/** A new call record in state "expected". */
export function newCall(id, fields, now) {
  return {
    id,
    ...fields,
    state: "expected",
    berthId: null,
    arrivedAt: null,
    berthedAt: null,
    departedAt: null,
    cancelledAt: null,
    cancelReason: null,
    etaRevisions: 0,
    history: [{ state: "expected", at: now }],
  };
}

/** The short form of a call the board and the logs show. */
export function callSummary(call) {
  return { id: call.id, vesselId: call.vesselId, voyage: call.voyage, state: call.state, eta: call.eta, etd: call.etd, berthId: call.berthId };
}
