// The two errors only the platform raises: no valid session (401) and a role that may not do
// the thing asked (403). Everything else is a core DomainError and maps in http/responses.js.

import { DomainError } from "../core/errors.js";

export class UnauthorizedError extends DomainError {
  constructor(message = "a valid session is required") {
    super("unauthorized", message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(action, role) {
    super("forbidden", `role ${role} may not ${action}`);
    this.action = action;
    this.role = role;
  }
}
