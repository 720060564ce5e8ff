// Which events land in the audit trail and how. start() subscribes to each and keeps the
// unsubscribe functions; stop() calls them all. Foreign events (calls, invoices) are listed by
// type with the payload field that names the record.

const AUDITED = Object.freeze([
  { type: "user.added", entityType: "user", idField: "userId" },
  { type: "user.roleChanged", entityType: "user", idField: "userId" },
  { type: "user.deactivated", entityType: "user", idField: "userId" },
  { type: "flag.changed", entityType: "flag", idField: "name" },
  { type: "session.started", entityType: "session", idField: "sessionId" },
  { type: "call.updated", entityType: "call", idField: "callId" },
  { type: "call.berthed", entityType: "call", idField: "callId" },
  { type: "call.departed", entityType: "call", idField: "callId" },
  { type: "invoice.issued", entityType: "invoice", idField: "invoiceId" },
  { type: "notification.failed", entityType: "notification", idField: "messageId" },
]);

export function createAuditWiring(ctx, { trail, flags }) {
  const offs = [];

  function onEvent(spec, payload) {
    const { actorId, ...rest } = payload ?? {};
    trail.record({
      actorId,
      action: spec.type,
      entityType: spec.entityType,
      entityId: payload[spec.idField],
      detail: flags.isOn("auditSnapshots") ? rest : null,
    });
  }

  return {
    start() {
      if (offs.length) return;
      for (const spec of AUDITED) offs.push(ctx.events.subscribe(spec.type, (p) => onEvent(spec, p)));
    },
    stop() {
      while (offs.length) offs.pop()();
    },
    auditedTypes: () => AUDITED.map((s) => s.type),
  };
}
