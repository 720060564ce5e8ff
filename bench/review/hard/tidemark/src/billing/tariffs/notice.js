// The notice agents get when the tariff book changes: for each code whose rate moves at `at`, the
// old and the new rate and the change in per-mille. Agents must have it 30 days before it applies.

import { ValidationError } from "../../core/errors.js";
import { DAY, toIso } from "../../core/time.js";
import { rateChangePermille, rateText } from "./price.js";

export const NOTICE_DAYS = 30;

/** Codes whose version changes exactly at `at`: [{ code, before, after, changePermille }]. */
export function changesAt(registry, at) {
  const out = [];
  for (const after of registry.tariffSheet(at)) {
    if (after.validFrom !== at) continue;
    const before = registry.effectiveTariff(after.code, at - 1);
    out.push({ code: after.code, before, after, changePermille: before ? rateChangePermille(before, after) : null });
  }
  return out;
}

export function tariffNotice(registry, at, { now, portName, currency }) {
  if (at - now < NOTICE_DAYS * DAY) throw new ValidationError("at", `agents need ${NOTICE_DAYS} days' notice of a tariff change`);
  const changes = changesAt(registry, at);
  const lines = [`${portName}: tariff changes from ${toIso(at).slice(0, 10)}`, ""];
  for (const c of changes) {
    const was = c.before ? rateText(c.before, currency) : "new tariff";
    const change = c.changePermille === null ? "" : ` (${c.changePermille >= 0 ? "+" : ""}${(c.changePermille / 10).toFixed(1)}%)`;
    lines.push(`  ${c.code.padEnd(12)}${c.after.description}: ${was} → ${rateText(c.after, currency)}${change}`);
  }
  if (changes.length === 0) lines.push("  No changes.");
  return { changes, text: lines.join("\n") };
}
