// audit.csv — the trail for a half-open window, oldest first, one line per entry. Only those who
// may read the trail may export it.

import { contains } from "../../core/time.js";
import { authorize } from "../users/permissions.js";
import { describeEntry } from "../audit/audit-record.js";
import { text, time } from "./columns.js";
import { toCsv } from "./csv.js";

export function createAuditReport(ctx, { trail, users, settings }) {
  function build(user, { window, entityType } = {}) {
    authorize(user, "audit:read");
    const entries = trail
      .entries((e) => (!entityType || e.entityType === entityType) && (!window || contains(window, e.at)))
      .slice(0, settings.reports.maxRows);
    const columns = [
      text("entry", (e) => e.id),
      time("at", (e) => e.at),
      text("actor", (e) => e.actorId),
      text("actor_name", (e) => (e.actorId === "system" ? "system" : users.findUser(e.actorId)?.name)),
      text("action", (e) => e.action),
      text("record", (e) => `${e.entityType} ${e.entityId}`),
      text("line", describeEntry),
    ];
    return toCsv(columns, entries);
  }

  return { build };
}
