// Password hashing with scrypt and a per-user salt. The stored form is "salt:hash", both hex.
// Comparison is constant-time so a wrong password takes as long as a right one.

import { randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import { ValidationError } from "../../core/errors.js";

const KEY_LENGTH = 32;
const COST = { N: 1024, r: 8, p: 1 }; // low enough for tests, raised by deployments through scrypt defaults

export function hashPassword(password, salt = randomBytes(16).toString("hex")) {
  if (typeof password !== "string" || password.length < 10) throw new ValidationError("password", "needs at least 10 characters");
  const hash = scryptSync(password, salt, KEY_LENGTH, COST).toString("hex");
  return `${salt}:${hash}`;
}

export function verifyPassword(password, stored) {
  if (typeof password !== "string" || typeof stored !== "string") return false;
  const [salt, hash] = stored.split(":");
  if (!salt || !hash) return false;
  const expected = Buffer.from(hash, "hex");
  const actual = scryptSync(password, salt, KEY_LENGTH, COST);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
