// POST /sessions logs in (public); DELETE /sessions/current logs out; GET /sessions/current says
// who the token belongs to and until when.

import { ValidationError } from "../../../core/errors.js";
import { toIso } from "../../../core/time.js";
import { minutesLeft } from "../../sessions/session-record.js";
import { actionsOf } from "../../users/permissions.js";
import { created, noContent, ok } from "../responses.js";

export function sessionRoutes(ctx, { login, sessions, users }) {
  return [
    [
      "POST",
      "/sessions",
      async ({ body }) => {
        if (!body || typeof body.email !== "string" || typeof body.password !== "string") throw new ValidationError("body", "email and password are required");
        const session = await login.login(body.email, body.password);
        return created({ token: session.token, expiresAt: toIso(session.expiresAt) });
      },
      { public: true },
    ],
    ["DELETE", "/sessions/current", ({ token }) => (login.logout(token), noContent())],
    [
      "GET",
      "/sessions/current",
      ({ token, user }) => {
        const session = sessions.findSession(token);
        return ok({
          user: users.publicUser(user),
          actions: actionsOf(user),
          expiresAt: toIso(session.expiresAt),
          minutesLeft: minutesLeft(session, ctx.clock.now()),
        });
      },
    ],
  ];
}
