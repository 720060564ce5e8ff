// Turns the request's session token into the user it belongs to. No token, an unknown or expired
// token, or a deactivated user: 401, the same answer for each so a client learns nothing more.
// The token comes as request.token (tests, the internal console) or an "Authorization: Bearer"
// header (the web client).

import { UnauthorizedError } from "../errors.js";

const BEARER = /^Bearer\s+([A-Za-z0-9_-]{16,})$/;

/** The token a request carries, or null. A malformed header counts as none. */
export function tokenOf(request) {
  if (typeof request?.token === "string" && request.token) return request.token;
  const header = request?.headers?.authorization ?? request?.headers?.Authorization;
  if (typeof header !== "string") return null;
  const match = BEARER.exec(header.trim());
  return match ? match[1] : null;
}

export function createAuth({ sessions, users }) {
  function authenticate(token) {
    if (!token) throw new UnauthorizedError();
    const session = sessions.findSession(token);
    if (!session) throw new UnauthorizedError("session expired or unknown");
    const user = users.findUser(session.userId);
    if (!user) throw new UnauthorizedError("session expired or unknown");
    if (!user.active) throw new UnauthorizedError("user is deactivated");
    return user;
  }

  return { authenticate };
}
