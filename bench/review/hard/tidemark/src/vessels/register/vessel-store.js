// The register's table and its IMO index. The index is kept next to the store so a lookup by IMO
// does not scan the table; it is only written by vessel-service.js, under the vessel's lock.

import { idSequence } from "../../core/ids.js";
import { createStore } from "../../core/store.js";

export function createVesselStore() {
  const store = createStore("vessel");
  const ids = idSequence("VSL");
  const byImo = new Map();

  return {
    store,
    nextId: () => ids.next(),
    /** Records loaded from elsewhere keep their ids; later ones continue after them. */
    load(records) {
      for (const record of records) {
        ids.seen(record.id);
        store.insert(record);
        byImo.set(record.imo, record.id);
      }
    },
    indexImo(imo, id) {
      byImo.set(imo, id);
    },
    idForImo: (imo) => byImo.get(imo) ?? null,
  };
}
