// Session store. findSession(token) returns null for an unknown or expired token, never throws:
// the auth step turns null into a 401. Issuing and revoking for one user take the lock
// `user:<id>`, so a login cannot slip a new session in while a deactivation revokes the old ones.

import { createStore } from "../../core/store.js";
import { idSequence } from "../../core/ids.js";
import { isValidAt, newSession } from "./session-record.js";

export function createSessions(ctx, { settings }) {
  const store = createStore("session");
  const ids = idSequence("SES");
  const byToken = new Map(); // token → session id

  /** Issues a session. The caller holds `user:<userId>` (login.js does). */
  function issue(userId) {
    const row = store.insert(newSession(ids.next(), userId, ctx.clock.now(), settings.sessions.ttlMinutes));
    byToken.set(row.token, row.id);
    ctx.events.publish("session.started", { sessionId: row.id, userId });
    return row;
  }

  function drop(session, reason) {
    store.remove(session.id);
    byToken.delete(session.token);
    ctx.events.publish("session.ended", { sessionId: session.id, userId: session.userId, reason });
  }

  function findSession(token) {
    const id = byToken.get(token);
    if (!id) return null;
    const session = store.find(id);
    if (!session || !isValidAt(session, ctx.clock.now())) return null;
    return session;
  }

  /** The user's live sessions, oldest first. */
  const openFor = (userId) => store.list((s) => s.userId === userId && isValidAt(s, ctx.clock.now()));

  return {
    issue,
    findSession,
    openFor,
    /** Ends one session (logout). Returns false when the token was unknown. */
    end(token) {
      const id = byToken.get(token);
      const session = id ? store.find(id) : null;
      if (!session) return false;
      drop(session, "logout");
      return true;
    },
    /** Ends the oldest live session of a user. The caller holds `user:<userId>`. */
    endOldest(userId) {
      const oldest = openFor(userId)[0];
      if (oldest) drop(oldest, "replaced");
      return oldest ?? null;
    },
    /** Ends every session of a user, live or not; takes `user:<userId>`. */
    revokeAllFor(userId, reason = "revoked") {
      return ctx.locks.withLock(`user:${userId}`, async () => {
        const mine = store.list((s) => s.userId === userId);
        for (const session of mine) drop(session, reason);
        return mine.length;
      });
    },
    /** Removes sessions that are over at `now`; returns how many. */
    removeExpired(now) {
      const over = store.list((s) => !isValidAt(s, now));
      for (const session of over) drop(session, "expired");
      return over.length;
    },
    count: () => store.size,
  };
}
