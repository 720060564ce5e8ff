// "Last changed by … at …" for a record, as the call screen and the calls report show it. The
// history comes oldest first, so the last change is the last entry.

export function createLastChange({ query, users }) {
  function lastChangeOf(entityType, entityId) {
    const last = query.historyOf(entityType, entityId).at(-1);
    if (!last) return null;
    const actor = last.actorId === "system" ? null : users.findUser(last.actorId);
    return { at: last.at, action: last.action, actorId: last.actorId, actorName: actor?.name ?? "system" };
  }

  return {
    lastChangeOf,
    /** The same for many records at once (a report), keyed by id. */
    lastChanges(entityType, entityIds) {
      const out = new Map();
      for (const id of entityIds) out.set(id, lastChangeOf(entityType, id));
      return out;
    },
  };
}
