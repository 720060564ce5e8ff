// A platform user. E-mail is the login and is kept lower-case; an agent carries the agency id its
// vessels point at (vessel.agentId). Users are never removed, only deactivated, so a session or an
// audit entry can always name the user it belongs to.

import { ValidationError } from "../../core/errors.js";
import { oneOf, pattern, required } from "../../core/validate.js";
import { ROLES } from "./roles.js";

const EMAIL = /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/;
const PHONE = /^\+[1-9][0-9]{7,14}$/; // E.164, the SMS gateway refuses anything else
const AGENCY = /^AGT-[0-9]{6}$/;

export const normaliseEmail = (email) => String(email ?? "").trim().toLowerCase();

export function validateUser(input) {
  required(input, ["name", "email", "role"]);
  const email = pattern(normaliseEmail(input.email), EMAIL, "email");
  const role = oneOf(input.role, ROLES, "role");
  if (input.phone !== undefined && input.phone !== null) pattern(input.phone, PHONE, "phone");
  if (role === "agent") pattern(input.agentId, AGENCY, "agentId");
  else if (input.agentId) throw new ValidationError("agentId", "only agents belong to an agency");
  return {
    name: String(input.name).trim(),
    email,
    phone: input.phone ?? null,
    role,
    agentId: role === "agent" ? input.agentId : null,
  };
}

/** What the API shows of a user: never the password hash. */
export function publicUser(user) {
  const { passwordHash, ...rest } = user;
  return rest;
}
