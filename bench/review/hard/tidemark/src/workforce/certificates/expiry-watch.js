// Once a day, warns about certificates that run out within the next 30 days so the training
// office books the renewals. Each certificate is warned about once per run of the module.

import { DAY } from "../../core/time.js";
import { EVENTS } from "../events.js";
import { expiringSoon } from "./validity.js";

export const WARN_AHEAD_DAYS = 30;

export function createExpiryWatch({ ctx, stores, life }) {
  const warned = new Set();

  function check() {
    const now = ctx.clock.now();
    const soon = expiringSoon(stores.certificates.list(), now, WARN_AHEAD_DAYS * DAY);
    const fresh = soon.filter((c) => !warned.has(c.id));
    for (const cert of fresh) {
      warned.add(cert.id);
      ctx.events.publish(EVENTS.certificateExpiring, {
        certificateId: cert.id,
        workerId: cert.workerId,
        skill: cert.skill,
        expiresAt: cert.validity.end,
      });
    }
    if (fresh.length) ctx.log("info", "workforce: certificates expiring", { count: fresh.length });
    return fresh.map((c) => c.id);
  }

  return {
    check,
    start() {
      life.track(ctx.scheduler.every(DAY, check));
    },
  };
}
