// GET /health (is the process alive) and GET /ready (may it take traffic). Both are public: the
// load balancer asks without a session. Readiness answers 503 while any check fails.

import { ok } from "../responses.js";

export function healthRoutes({ health }) {
  return [
    ["GET", "/health", () => ok(health.liveness()), { public: true }],
    [
      "GET",
      "/ready",
      () => {
        const report = health.readiness();
        return { status: report.ready ? 200 : 503, body: report };
      },
      { public: true },
    ],
  ];
}
