// The users screen: list (paged), add, change role, deactivate. Deactivating ends the user's
// sessions too, after the user record says inactive, so no new login can start in between.

import { ValidationError } from "../../../core/errors.js";
import { paginate } from "../../../core/paging.js";
import { authorize } from "../../users/permissions.js";
import { parsePaging, pageBody } from "../paging-query.js";
import { present } from "../present.js";
import { created, ok } from "../responses.js";

export function userRoutes(ctx, { users, sessions }) {
  const show = (u) => present(users.publicUser(u));

  return [
    [
      "GET",
      "/users",
      ({ user, query }) => {
        authorize(user, "users:read");
        const role = query.role || undefined;
        const page = paginate(users.listUsers((u) => !role || u.role === role), parsePaging(query, ctx.config), ctx.config);
        return ok(pageBody(page, show));
      },
    ],
    [
      "POST",
      "/users",
      ({ user, body }) => {
        authorize(user, "users:manage");
        if (!body?.password) throw new ValidationError("password", "is required");
        const { password, ...fields } = body;
        return created(show(users.addUser(fields, password, user.id)));
      },
    ],
    [
      "PUT",
      "/users/:id/role",
      ({ user, params, body }) => {
        authorize(user, "users:manage");
        return ok(show(users.setRole(params.id, body?.role, user.id)));
      },
    ],
    [
      "POST",
      "/users/:id/deactivate",
      async ({ user, params }) => {
        authorize(user, "users:manage");
        if (params.id === user.id) throw new ValidationError("id", "you cannot deactivate yourself");
        const row = users.deactivate(params.id, user.id);
        const ended = await sessions.revokeAllFor(params.id, "deactivated");
        return ok({ user: show(row), sessionsEnded: ended });
      },
    ],
  ];
}
