// GET /reports/:name — a CSV report by name ("calls.csv", "invoices.csv", "audit.csv"). The query
// carries the report's filters; the registry checks the permission for each report.

import { csv } from "../responses.js";

export function reportRoutes(ctx, { reports }) {
  return [
    [
      "GET",
      "/reports/:name",
      ({ user, params, query }) => {
        const { filename, text } = reports.run(params.name, user, query);
        return csv(filename, text);
      },
    ],
    ["GET", "/reports", () => ({ status: 200, body: { reports: reports.names() } })],
  ];
}
