// Building answers, and mapping errors to statuses. A DomainError's code decides the status; any
// other error is a bug: it is logged with its stack and the client sees a bare 500.

import { DomainError } from "../../core/errors.js";

const STATUS_BY_CODE = Object.freeze({
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
});

export const ok = (body) => ({ status: 200, body });
export const created = (body) => ({ status: 201, body });
export const noContent = () => ({ status: 204, body: null });
export const csv = (filename, text) => ({ status: 200, body: text, contentType: "text/csv; charset=utf-8", filename });

export function errorResponse(error, log) {
  if (error instanceof DomainError) {
    const status = STATUS_BY_CODE[error.code] ?? 400;
    const body = { error: error.code, message: error.message };
    if (error.field) body.field = error.field;
    return { status, body };
  }
  log("error", "request failed", { error: error?.message, stack: error?.stack });
  return { status: 500, body: { error: "internal", message: "internal error" } };
}

export const methodNotAllowed = (allowed) => ({ status: 405, body: { error: "method_not_allowed", allowed } });
export const noRoute = (path) => ({ status: 404, body: { error: "not_found", message: `no route for ${path}` } });
