// The module's tables and their id sequences. One place creates them so a test (or an import)
// can load records and keep the sequences ahead of what was loaded.

import { createStore } from "../core/store.js";
import { idSequence } from "../core/ids.js";

const TABLES = Object.freeze({
  workers: ["worker", "WRK"],
  certificates: ["certificate", "CRT"],
  gangs: ["gang", "GNG"],
  shifts: ["shift", "SHF"],
  leave: ["leave request", "LVE"],
  timesheets: ["timesheet", "TSH"],
  publications: ["roster publication", "RPB"],
});

export function createStores() {
  const stores = {};
  const ids = {};
  for (const [name, [kind, prefix]] of Object.entries(TABLES)) {
    stores[name] = createStore(kind);
    ids[name] = idSequence(prefix);
  }
  return { ...stores, ids };
}

/** Loads records that were saved elsewhere, keeping the id sequence past them. */
export function loadRecords(stores, table, records) {
  const store = stores[table];
  if (!store) throw new Error(`workforce: no table ${table}`);
  for (const record of records) {
    store.insert(record);
    stores.ids[table].seen(record.id);
  }
  return store.size;
}
