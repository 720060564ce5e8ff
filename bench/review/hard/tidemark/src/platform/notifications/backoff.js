// How long a failed notification waits before its next attempt: doubling from the base, capped,
// in minutes. Attempt counts include the first send, so after attempt 1 the wait is the base.

import { MINUTE } from "../../core/time.js";

export function retryDelayMinutes(attempts, { backoffBaseMinutes, backoffCapMinutes }) {
  if (!Number.isInteger(attempts) || attempts < 1) throw new Error(`attempts must be a positive integer, got ${attempts}`);
  const delay = backoffBaseMinutes * 2 ** (attempts - 1);
  return Math.min(delay, backoffCapMinutes);
}

/** The time of the next attempt after `attempts` failures, or null once the attempts are used up. */
export function nextAttemptAt(now, attempts, settings) {
  if (attempts >= settings.maxAttempts) return null;
  return now + retryDelayMinutes(attempts, settings) * MINUTE;
}

/** The whole schedule for a message that always fails, for the docs and the outbox screen. */
export function schedule(settings) {
  const out = [];
  for (let a = 1; a < settings.maxAttempts; a++) out.push(retryDelayMinutes(a, settings));
  return out;
}
