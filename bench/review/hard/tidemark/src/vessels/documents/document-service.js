// Pre-arrival documents received for calls. A new version of a document replaces the one before
// (the older stays, marked superseded); whether it was on time is decided when it arrives and kept.

import { ConflictError } from "../../core/errors.js";
import { idSequence } from "../../core/ids.js";
import { createStore } from "../../core/store.js";
import { checkCrewList } from "./crew-list.js";
import { isOnTime } from "./deadlines.js";
import { checkDgDeclaration } from "./dg-declaration.js";
import { assertKind } from "./document-kinds.js";

const CHECKS = { crew_list: checkCrewList, dg_declaration: checkDgDeclaration };

/** deps.calls: the call service (getCall). */
export function createDocuments(ctx, { calls }) {
  const store = createStore("document");
  const ids = idSequence("DOC");

  const currentOf = (callId, kind) => store.list((d) => d.callId === callId && d.kind === kind && !d.supersededBy)[0] ?? null;

  function submit({ callId, kind, content, submittedBy = null }) {
    assertKind(kind);
    const call = calls.getCall(callId);
    if (call.state === "departed" || call.state === "cancelled") throw new ConflictError(`call ${callId} is ${call.state}`);
    const summary = CHECKS[kind](content);
    const receivedAt = ctx.clock.now();
    const previous = currentOf(callId, kind);
    const doc = store.insert({
      id: ids.next(),
      callId,
      kind,
      summary,
      submittedBy,
      receivedAt,
      onTime: isOnTime(kind, call, receivedAt),
      supersededBy: null,
    });
    if (previous) store.update(previous.id, (draft) => ({ ...draft, supersededBy: doc.id }));
    ctx.events.publish("document.received", { documentId: doc.id, callId, kind, onTime: doc.onTime });
    return store.get(doc.id);
  }

  return {
    submit,
    currentOf,
    findDocument: (id) => store.find(id),
    documentsOf: (callId) => store.list((d) => d.callId === callId),
  };
}
