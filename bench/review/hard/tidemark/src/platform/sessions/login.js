// Login: e-mail and password to a session. A wrong e-mail and a wrong password give the same
// 401 so nobody can probe for accounts. The session is issued under the user's lock, re-reading
// the user there: a deactivation that ran while the password was checked wins.

import { UnauthorizedError } from "../errors.js";
import { verifyPassword } from "../users/passwords.js";

export function createLogin(ctx, { users, sessions, settings }) {
  async function login(email, password) {
    const user = users.findByEmail(email);
    if (!user || !verifyPassword(password, user.passwordHash)) throw new UnauthorizedError("wrong e-mail or password");
    return ctx.locks.withLock(`user:${user.id}`, async () => {
      const fresh = users.getUser(user.id);
      if (!fresh.active) throw new UnauthorizedError("wrong e-mail or password");
      if (sessions.openFor(fresh.id).length >= settings.sessions.maxPerUser) sessions.endOldest(fresh.id);
      const session = sessions.issue(fresh.id);
      ctx.log("info", "login", { userId: fresh.id, sessionId: session.id });
      return session;
    });
  }

  return {
    login,
    logout: (token) => sessions.end(token),
  };
}
