// The append-only audit store. record() writes the entry and then publishes "audit.recorded";
// there is no update or remove. Entries come back frozen and in id order, which is time order.

import { createStore } from "../../core/store.js";
import { idSequence } from "../../core/ids.js";
import { auditEntry } from "./audit-record.js";

export function createAuditTrail(ctx) {
  const store = createStore("audit");
  const ids = idSequence("AUD");

  function record(input) {
    const row = store.insert(auditEntry(ids.next(), input, ctx.clock.now()));
    ctx.events.publish("audit.recorded", { entryId: row.id, action: row.action });
    return row;
  }

  return {
    record,
    findEntry: store.find,
    getEntry: (id) => store.get(id),
    /** Every entry matching `where`, in id order. */
    entries: (where) => store.list(where),
    count: () => store.size,
  };
}
