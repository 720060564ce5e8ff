// GET /audit — the trail, filtered and paged; GET /audit/:type/:id — one record's history.
// Only the harbour master and planners read the trail.

import { ValidationError } from "../../../core/errors.js";
import { ENTITY_TYPES } from "../../audit/audit-record.js";
import { authorize } from "../../users/permissions.js";
import { enumParam, windowParam } from "../edge.js";
import { parsePaging, pageBody } from "../paging-query.js";
import { present } from "../present.js";
import { ok } from "../responses.js";

export function auditRoutes(ctx, { auditQuery }) {
  return [
    [
      "GET",
      "/audit",
      ({ user, query }) => {
        authorize(user, "audit:read");
        const page = auditQuery.listEntries({
          entityType: enumParam(query, "entityType", ENTITY_TYPES),
          actorId: query.actorId || undefined,
          action: query.action || undefined,
          window: windowParam(query),
          ...parsePaging(query, ctx.config),
        });
        return ok(pageBody(page, present));
      },
    ],
    [
      "GET",
      "/audit/:type/:id",
      ({ user, params }) => {
        authorize(user, "audit:read");
        if (!ENTITY_TYPES.includes(params.type)) throw new ValidationError("type", `must be one of ${ENTITY_TYPES.join(", ")}`);
        return ok({ items: present(auditQuery.historyOf(params.type, params.id)) });
      },
    ],
  ];
}
