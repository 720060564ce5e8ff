// GET /notifications — the outbox as the user may see it (an agent: messages about its own
// vessels), ?status filter, paged; GET /notifications/:id — one message.

import { NotFoundError } from "../../../core/errors.js";
import { paginate } from "../../../core/paging.js";
import { STATUSES } from "../../notifications/message.js";
import { authorize } from "../../users/permissions.js";
import { enumParam } from "../edge.js";
import { parsePaging, pageBody } from "../paging-query.js";
import { present } from "../present.js";
import { ok } from "../responses.js";

export function notificationRoutes(ctx, { outbox, scope }) {
  return [
    [
      "GET",
      "/notifications",
      ({ user, query }) => {
        const allowed = authorize(user, "notifications:read");
        const status = enumParam(query, "status", STATUSES);
        const mine = scope.filter(allowed, user, outbox.messages(status));
        return ok(pageBody(paginate(mine, parsePaging(query, ctx.config), ctx.config), present));
      },
    ],
    [
      "GET",
      "/notifications/:id",
      ({ user, params }) => {
        const allowed = authorize(user, "notifications:read");
        const message = outbox.findMessage(params.id);
        if (!message) throw new NotFoundError("notification", params.id);
        return ok(present(scope.assertVisible(allowed, user, message, "notification")));
      },
    ],
  ];
}
