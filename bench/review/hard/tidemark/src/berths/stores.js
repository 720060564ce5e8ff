// The berth module's tables and id sequences. Only this module writes them; other modules see
// berths and bookings through createBerths' functions.

import { idSequence } from "../core/ids.js";
import { createStore } from "../core/store.js";

export function createBerthStores() {
  return {
    quays: createStore("quay"),
    berths: createStore("berth"),
    bookings: createStore("booking"),
    tides: createStore("tide"),
    closures: createStore("closure"),
    bookingIds: idSequence("BKG"),
    tideIds: idSequence("TIDE"),
    closureIds: idSequence("CLS"),
  };
}

/** Record counts per table, for the platform's health page. */
export function storeSizes(stores) {
  return {
    quays: stores.quays.size,
    berths: stores.berths.size,
    bookings: stores.bookings.size,
    tides: stores.tides.size,
    closures: stores.closures.size,
  };
}
