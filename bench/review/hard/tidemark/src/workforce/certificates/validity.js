// Which certificate, if any, lets a worker work a skill over a span. The certificate must cover
// the whole span (half-open: one ending at the shift's end still covers it).

import { chargeableDays, contains, covers } from "../../core/time.js";
import { needsCertificate } from "../records/skills.js";

/** The certificate that covers `span` for `skill`, or null. Longest-running first when several do. */
export function coveringCertificate(certs, skill, span) {
  const usable = certs.filter((c) => c.skill === skill && !c.revoked && covers(c.validity, span));
  if (usable.length === 0) return null;
  return usable.reduce((best, c) => (c.validity.end > best.validity.end ? c : best));
}

export function isCertifiedFor(certs, skill, span) {
  if (!needsCertificate(skill)) return true;
  return coveringCertificate(certs, skill, span) !== null;
}

/** Certificates whose validity ends within `withinMs` after `now` (and has not ended yet). */
export function expiringSoon(certs, now, withinMs) {
  return certs
    .filter((c) => !c.revoked && c.validity.end > now && c.validity.end <= now + withinMs)
    .toSorted((a, b) => a.validity.end - b.validity.end || (a.id < b.id ? -1 : 1));
}

/** Is the certificate in force at time t (half-open: not at the instant its validity ends)? */
export const inForceAt = (cert, t) => !cert.revoked && contains(cert.validity, t);

/** Whole days left on a certificate at `now`, a started day counting (0 once it has ended). */
export function daysLeft(cert, now) {
  if (cert.validity.end <= now) return 0;
  return chargeableDays({ start: Math.max(now, cert.validity.start), end: cert.validity.end });
}
