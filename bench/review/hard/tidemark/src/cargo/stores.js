// The cargo module's tables and id sequences, made once per module instance.

import { idSequence } from "../core/ids.js";
import { createStore } from "../core/store.js";

export function createCargoStores() {
  return {
    blocks: createStore("block"), // ids are the yard's own block names ("A1", "R2")
    containers: createStore("container"),
    plugs: createStore("plug"),
    readings: createStore("reading"),
    alarms: createStore("alarm"),
    moves: createStore("move"),
    appointments: createStore("appointment"),
    ids: {
      container: idSequence("CTR"),
      plug: idSequence("PLG"),
      reading: idSequence("RDG"),
      alarm: idSequence("ALM"),
      move: idSequence("MOV"),
      appointment: idSequence("APT"),
    },
  };
}
