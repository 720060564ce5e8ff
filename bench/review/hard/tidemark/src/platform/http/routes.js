// Every route of the API, in one place. Each handler file returns [method, pattern, handler,
// options] rows; this adds them to one router whose authenticate comes from http/auth.js.

import { createRouter } from "./router.js";
import { auditRoutes } from "./handlers/audit.js";
import { callRoutes } from "./handlers/calls.js";
import { flagRoutes } from "./handlers/flags.js";
import { healthRoutes } from "./handlers/health.js";
import { notificationRoutes } from "./handlers/notifications.js";
import { reportRoutes } from "./handlers/reports.js";
import { sessionRoutes } from "./handlers/sessions.js";
import { userRoutes } from "./handlers/users.js";
import { vesselRoutes } from "./handlers/vessels.js";

export function buildRouter(ctx, parts) {
  const router = createRouter({ authenticate: parts.auth.authenticate, log: ctx.log });
  const rows = [
    ...healthRoutes(parts),
    ...sessionRoutes(ctx, parts),
    ...userRoutes(ctx, parts),
    ...vesselRoutes(ctx, parts),
    ...callRoutes(ctx, parts),
    ...auditRoutes(ctx, parts),
    ...notificationRoutes(ctx, parts),
    ...reportRoutes(ctx, parts),
    ...flagRoutes(ctx, parts),
  ];
  for (const [method, pattern, handler, options] of rows) router.add(method, pattern, handler, options);
  return router;
}
