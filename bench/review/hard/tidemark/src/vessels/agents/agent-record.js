// Shipping agents: the firms that act for a vessel's owner in port, declare her calls and receive
// the port's notices and invoices. Each has a short code the harbour master's office uses on the
// board ("ALVSH") and an e-mail address for notices.

import { ValidationError } from "../../core/errors.js";
import { pattern, required } from "../../core/validate.js";

const CODE = /^[A-Z]{3,6}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i;
const PHONE = /^\+\d{6,15}$/;

export const assertEmail = (value, field = "email") => pattern(String(value ?? "").trim().toLowerCase(), EMAIL, field);

export function assertPhone(value, field = "phone") {
  const compact = String(value ?? "").replace(/[\s()-]/g, "");
  return pattern(compact, PHONE, field);
}

export function validateAgentInput(input) {
  required(input, ["code", "name", "email"]);
  const name = String(input.name).trim();
  if (name.length < 3) throw new ValidationError("name", "too short");
  return {
    code: pattern(String(input.code).trim().toUpperCase(), CODE, "code"),
    name,
    email: assertEmail(input.email),
    phone: input.phone ? assertPhone(input.phone) : null,
    active: true,
  };
}

export function applyAgentPatch(current, patch) {
  const next = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (key === "name") next.name = String(value).trim();
    else if (key === "email") next.email = assertEmail(value);
    else if (key === "phone") next.phone = value ? assertPhone(value) : null;
    else if (key === "active") next.active = Boolean(value);
    else throw new ValidationError(key, "cannot be changed");
  }
  return next;
}
