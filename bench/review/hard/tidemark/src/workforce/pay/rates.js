// The base rate a shift is paid at. A foreman working as foreman earns the foreman rate; anyone
// else earns the rate of the skill worked, not of their best skill.

import { ValidationError } from "../../core/errors.js";
import { formatMinor } from "../../core/money.js";
import { HOURLY_RATES_MINOR } from "./rules.js";

export function hourlyRateMinor(skill) {
  const rate = HOURLY_RATES_MINOR[skill];
  if (rate === undefined) throw new ValidationError("skill", `no rate for ${skill}`);
  return rate;
}

/** A rate for `minutes` at `hourlyMinor` scaled by `permille`; fractional, the line rounds it. */
export const minutesAt = (minutes, hourlyMinor, permille = 1000) => (minutes * hourlyMinor * permille) / (60 * 1000);

/** The rate card pinned in the hiring hall: skills by hourly rate, highest first. */
export function rateCard(currency = "EUR") {
  return Object.entries(HOURLY_RATES_MINOR)
    .map(([skill, hourlyMinor]) => ({ skill, hourlyMinor }))
    .toSorted((a, b) => b.hourlyMinor - a.hourlyMinor || (a.skill < b.skill ? -1 : 1))
    .map((r) => ({ ...r, text: `${r.skill.padEnd(14)} ${formatMinor(r.hourlyMinor, currency)}/h` }));
}

/** The rate of the best-paid skill a worker holds (what the hiring hall quotes for a call-out). */
export function bestRateMinor(skills) {
  const known = skills.filter((s) => HOURLY_RATES_MINOR[s] !== undefined);
  if (known.length === 0) throw new ValidationError("skills", "no paid skill");
  return Math.max(...known.map((s) => HOURLY_RATES_MINOR[s]));
}
