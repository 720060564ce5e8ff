// The platform: HTTP handlers, users and sessions, the audit trail, notifications, reports, health
// and the start-up wiring. Other modules come in through deps as ports:
//   deps.vessels   { findVessel(id) → vessel | null, listCalls() → calls in id order }
//   deps.billing   { listInvoices() → invoices in id order }
//   deps.transport { send({ channel, to, subject, text }) → Promise }
//   deps.settings  overrides of the platform settings (settings.js)
//   deps.flags     initial flag states (flags/defaults.js)
// Any port may also offer ping() for the readiness check.

import { platformSettings } from "./settings.js";
import { createFlags } from "./flags/flags.js";
import { createUsers } from "./users/users.js";
import { createScope } from "./users/scope.js";
import { createSessions } from "./sessions/sessions.js";
import { createLogin } from "./sessions/login.js";
import { createSessionSweeper } from "./sessions/sweeper.js";
import { createAuditTrail } from "./audit/audit-trail.js";
import { createAuditQuery } from "./audit/audit-query.js";
import { createLastChange } from "./audit/last-change.js";
import { createAuditWiring } from "./audit/audit-wiring.js";
import { createOutbox } from "./notifications/outbox.js";
import { createRateLimit } from "./notifications/rate-limit.js";
import { createDispatcher } from "./notifications/dispatcher.js";
import { createNotices } from "./notifications/notices.js";
import { createCallsQuery } from "./queries/calls-query.js";
import { createVesselsQuery } from "./queries/vessels-query.js";
import { createCallsReport } from "./reports/calls-report.js";
import { createInvoicesReport } from "./reports/invoices-report.js";
import { createAuditReport } from "./reports/audit-report.js";
import { createReportRegistry } from "./reports/registry.js";
import { dispatcherCheck, outboxCheck, portChecks } from "./health/checks.js";
import { createHealth } from "./health/health.js";
import { createLifecycle } from "./lifecycle/app.js";
import { platformJobs } from "./lifecycle/jobs.js";
import { createAuth } from "./http/auth.js";
import { buildRouter } from "./http/routes.js";

export function createPlatform(ctx, deps) {
  const { vessels, billing, transport } = deps;
  const settings = platformSettings(deps.settings);
  const flags = createFlags(ctx, deps.flags);

  const users = createUsers(ctx);
  const scope = createScope(vessels);
  const sessions = createSessions(ctx, { settings });
  const login = createLogin(ctx, { users, sessions, settings });
  const sweeper = createSessionSweeper(ctx, { sessions, settings });

  const trail = createAuditTrail(ctx);
  const auditQuery = createAuditQuery(ctx, { trail });
  const lastChange = createLastChange({ query: auditQuery, users });
  const auditWiring = createAuditWiring(ctx, { trail, flags });

  const outbox = createOutbox(ctx, { settings });
  const rateLimit = createRateLimit({ settings });
  const dispatcher = createDispatcher(ctx, { outbox, transport, rateLimit, settings });
  const notices = createNotices(ctx, { outbox, users, vessels, flags });

  const callsQuery = createCallsQuery(ctx, { vessels, scope });
  const vesselsQuery = createVesselsQuery(ctx, { vessels, scope });
  const callsReport = createCallsReport(ctx, { vessels, scope, lastChange, flags, settings });
  const invoicesReport = createInvoicesReport(ctx, { billing, vessels, scope, settings });
  const auditReport = createAuditReport(ctx, { trail, users, settings });
  const reports = createReportRegistry(ctx, { callsReport, invoicesReport, auditReport });

  const lifecycle = createLifecycle(ctx, {
    parts: [auditWiring, notices, sweeper, dispatcher],
    jobs: platformJobs(ctx, { outbox, sessions }),
  });
  const checks = [dispatcherCheck(ctx, { dispatcher, settings }), outboxCheck(ctx, { outbox, flags }), ...portChecks({ vessels, billing, transport })];
  const health = createHealth(ctx, { checks, lifecycle });

  const auth = createAuth({ sessions, users });
  const router = buildRouter(ctx, {
    auth, login, sessions, users, scope, flags, outbox, health, reports,
    callsQuery, vesselsQuery, auditQuery, lastChange,
  });

  return {
    handle: router.handle,
    start: lifecycle.start,
    stop: lifecycle.stop,
    settings,
    flags,
    users,
    sessions,
    login,
    audit: { trail, query: auditQuery, lastChange },
    outbox,
    dispatcher,
    reports,
    health,
    routes: router.routes,
  };
}
