// GET /calls — the calls the user may see, filtered by ?from&to (ISO, half-open), ?status,
// ?vesselId, ?berthId, paged; GET /calls/:id — one call with its last change from the audit trail.

import { enumParam, windowParam } from "../edge.js";
import { parsePaging, pageBody } from "../paging-query.js";
import { present } from "../present.js";
import { ok } from "../responses.js";
import { CALL_STATUSES } from "../../queries/calls-query.js";

export function callRoutes(ctx, { callsQuery, lastChange }) {
  return [
    [
      "GET",
      "/calls",
      ({ user, query }) => {
        const page = callsQuery.visibleCalls(user, {
          window: windowParam(query),
          status: enumParam(query, "status", CALL_STATUSES),
          vesselId: query.vesselId || undefined,
          berthId: query.berthId || undefined,
          ...parsePaging(query, ctx.config),
        });
        return ok(pageBody(page, present));
      },
    ],
    [
      "GET",
      "/calls/:id",
      ({ user, params }) => {
        const call = callsQuery.callFor(user, params.id);
        return ok(present({ ...call, lastChange: lastChange.lastChangeOf("call", call.id) }));
      },
    ],
  ];
}
