// GET /flags and PUT /flags/:name { value: true|false } — the harbour master's switches.

import { authorize } from "../../users/permissions.js";
import { ok } from "../responses.js";

export function flagRoutes(ctx, { flags }) {
  return [
    [
      "GET",
      "/flags",
      ({ user }) => {
        authorize(user, "flags:manage");
        return ok({ flags: flags.list() });
      },
    ],
    [
      "PUT",
      "/flags/:name",
      ({ user, params, body }) => {
        authorize(user, "flags:manage");
        return ok(flags.set(params.name, body?.value, user));
      },
    ],
  ];
}
