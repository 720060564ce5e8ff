// The reports the API offers, by file name. Each reads its filters from the query through the edge
// helpers, so a report never sees an ISO string or a metre.

import { NotFoundError } from "../../core/errors.js";
import { toIso } from "../../core/time.js";
import { ENTITY_TYPES } from "../audit/audit-record.js";
import { CALL_STATUSES } from "../queries/calls-query.js";
import { enumParam, windowParam } from "../http/edge.js";

export function createReportRegistry(ctx, { callsReport, invoicesReport, auditReport }) {
  const stamp = () => toIso(ctx.clock.now()).slice(0, 10);

  const REPORTS = {
    "calls.csv": (user, query) =>
      callsReport.build(user, { window: windowParam(query), status: enumParam(query, "status", CALL_STATUSES) }),
    "invoices.csv": (user, query) => invoicesReport.build(user, { window: windowParam(query) }),
    "audit.csv": (user, query) =>
      auditReport.build(user, { window: windowParam(query), entityType: enumParam(query, "entityType", ENTITY_TYPES) }),
  };

  return {
    names: () => Object.keys(REPORTS),
    /** { filename, text } — the file name carries the day it was made. */
    run(name, user, query = {}) {
      const build = REPORTS[name];
      if (!build) throw new NotFoundError("report", name);
      const text = build(user, query);
      return { filename: `${ctx.config.port.code}-${stamp()}-${name}`, text };
    },
  };
}
