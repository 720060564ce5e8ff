// GET /vessels/:id — the vessel with its calls, latest first; GET /vessels/:id/calls — the same
// calls paged in id order, for the vessel's history tab. Lengths stay in centimetres, as the field
// names say. An agent asking for another agency's vessel gets a 404 (vesselsQuery decides).

import { enumParam, windowParam } from "../edge.js";
import { parsePaging, pageBody } from "../paging-query.js";
import { present } from "../present.js";
import { ok } from "../responses.js";
import { CALL_STATUSES } from "../../queries/calls-query.js";

export function vesselRoutes(ctx, { vesselsQuery, callsQuery }) {
  return [
    [
      "GET",
      "/vessels/:id",
      ({ user, params }) => ok(present(vesselsQuery.vesselWithCalls(user, params.id))),
    ],
    [
      "GET",
      "/vessels/:id/calls",
      ({ user, params, query }) => {
        const vessel = vesselsQuery.vesselFor(user, params.id);
        const page = callsQuery.visibleCalls(user, {
          vesselId: vessel.id,
          window: windowParam(query),
          status: enumParam(query, "status", CALL_STATUSES),
          ...parsePaging(query, ctx.config),
        });
        return ok(pageBody(page, present));
      },
    ],
  ];
}
