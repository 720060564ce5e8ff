// Snapshots of the berth module's tables, for the platform's nightly backup and for starting a
// test or a training copy from a known plan. Restoring continues the id sequences after the
// restored ids, so a new booking never takes an id a restored one has.

import { ValidationError } from "../core/errors.js";

const TABLES = ["quays", "berths", "bookings", "tides", "closures"];
const SEQUENCES = { bookings: "bookingIds", tides: "tideIds", closures: "closureIds" };

export const SNAPSHOT_VERSION = 1;

/** Plain copies of every table's records (without their store versions). */
export function exportSnapshot(stores, now) {
  const tables = {};
  for (const table of TABLES) {
    tables[table] = stores[table].list().map(({ version, ...record }) => structuredClone(record));
  }
  return { version: SNAPSHOT_VERSION, takenAt: now, tables };
}

/** Loads a snapshot into empty stores; refuses to mix it with records already there. */
export function restoreSnapshot(stores, snapshot) {
  if (snapshot?.version !== SNAPSHOT_VERSION) throw new ValidationError("version", `expected snapshot version ${SNAPSHOT_VERSION}`);
  for (const table of TABLES) {
    if (stores[table].size > 0) throw new ValidationError(table, "restore needs empty stores");
  }
  const counts = {};
  for (const table of TABLES) {
    const records = snapshot.tables[table] ?? [];
    for (const record of records) {
      stores[table].insert(record);
      if (SEQUENCES[table]) stores[SEQUENCES[table]].seen(record.id);
    }
    counts[table] = records.length;
  }
  return counts;
}
