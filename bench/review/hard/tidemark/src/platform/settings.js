// The platform's own settings. The core config has no platform section, so a deployment hands
// overrides through deps.settings and they are merged here once, at start-up. Shared settings
// (paging, cache, port) still come from ctx.config. Durations are minutes, like everywhere else.

import { ValidationError } from "../core/errors.js";

const PLATFORM_DEFAULTS = Object.freeze({
  sessions: Object.freeze({
    ttlMinutes: 480, // one watch on the quay
    maxPerUser: 3, // the oldest one is ended when a fourth opens
    sweepEveryMinutes: 15,
  }),
  notifications: Object.freeze({
    pollEveryMinutes: 1,
    maxAttempts: 5, // the first send counts as an attempt
    backoffBaseMinutes: 2,
    backoffCapMinutes: 120,
    perRecipientPerHour: 6, // 0 turns the limit off
  }),
  reports: Object.freeze({ maxRows: 10_000 }),
  health: Object.freeze({ staleAfterMinutes: 10 }),
});

function merge(base, over, at) {
  const out = {};
  for (const key of Object.keys(base)) out[key] = base[key];
  for (const [key, value] of Object.entries(over ?? {})) {
    if (!(key in base)) throw new ValidationError(`settings.${at}${key}`, "unknown setting");
    if (typeof base[key] === "object") out[key] = merge(base[key], value, `${at}${key}.`);
    else if (!Number.isInteger(value) || value < 0) throw new ValidationError(`settings.${at}${key}`, "must be a whole, non-negative number");
    else out[key] = value;
  }
  return Object.freeze(out);
}

/** The platform defaults with a deployment's overrides on top. */
export function platformSettings(overrides = {}) {
  return merge(PLATFORM_DEFAULTS, overrides, "");
}
