// A session is valid over the half-open interval [issuedAt, expiresAt): at expiresAt it is over.
// The token is what the client holds; the id is for the audit trail and never leaves the server.

import { randomBytes } from "node:crypto";
import { MINUTE, contains, interval } from "../../core/time.js";

export function newSession(id, userId, now, ttlMinutes) {
  const validity = interval(now, now + ttlMinutes * MINUTE);
  return {
    id,
    token: randomBytes(24).toString("base64url"),
    userId,
    issuedAt: validity.start,
    expiresAt: validity.end,
  };
}

export const validityOf = (session) => ({ start: session.issuedAt, end: session.expiresAt });

export const isValidAt = (session, now) => contains(validityOf(session), now);

/** Minutes left, rounded down; 0 once the session is over. */
export function minutesLeft(session, now) {
  if (!isValidAt(session, now)) return 0;
  return Math.floor((session.expiresAt - now) / MINUTE);
}
