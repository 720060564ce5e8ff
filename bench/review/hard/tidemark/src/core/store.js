// An in-memory table. Records come out frozen: a caller that wants to change one calls update.
// list() returns records in id order (ids sort by creation), which paging relies on.

import { ConflictError, NotFoundError } from "./errors.js";

const deepFreeze = (value) => {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
};

const copy = (value) => structuredClone(value);

export function createStore(kind) {
  const rows = new Map();

  const find = (id) => (rows.has(id) ? rows.get(id) : null);

  return {
    kind,
    find,
    get(id) {
      const row = find(id);
      if (!row) throw new NotFoundError(kind, id);
      return row;
    },
    insert(record) {
      if (rows.has(record.id)) throw new ConflictError(`${kind} ${record.id} exists`);
      const row = deepFreeze({ ...copy(record), version: 1 });
      rows.set(record.id, row);
      return row;
    },
    /** fn gets a mutable copy and returns the new record; `expectVersion` guards against lost updates. */
    update(id, fn, expectVersion) {
      const current = this.get(id);
      if (expectVersion !== undefined && current.version !== expectVersion) {
        throw new ConflictError(`${kind} ${id} changed (version ${current.version}, expected ${expectVersion})`);
      }
      const next = fn(copy(current)) ?? current;
      const row = deepFreeze({ ...copy(next), id, version: current.version + 1 });
      rows.set(id, row);
      return row;
    },
    remove(id) {
      return rows.delete(id);
    },
    list(where = () => true) {
      return [...rows.values()].filter(where).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
    get size() {
      return rows.size;
    },
  };
}
