// The tariff book as the harbour master's office sends it: one version per line,
//   code;basis;rate;validFrom[;validTo]
// rate "12,50" in euros for the unit bases, "3" per mille for the value basis; dates ISO.
// Euros become minor units here, at the edge.

import { ValidationError } from "../../core/errors.js";
import { parseIso } from "../../core/time.js";
import { BASES } from "../records/tariff.js";

/** "1 234,50" or "1234.50" → 123450. Refuses more than two decimals rather than guess. */
export function eurosToMinor(text, field = "rate") {
  const clean = String(text).trim().replace(/\s/g, "").replace(",", ".");
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) throw new ValidationError(field, `not an amount: ${text}`);
  const [units, cents = ""] = clean.split(".");
  return Number(units) * 100 + Number(cents.padEnd(2, "0"));
}

export function parseTariffLine(line, lineNo = 1) {
  const cells = line.split(";").map((c) => c.trim());
  if (cells.length < 4 || cells.length > 5) throw new ValidationError(`line ${lineNo}`, "expected 4 or 5 fields");
  const [code, basis, rate, from, to] = cells;
  const base = {
    code,
    description: code,
    basis,
    validFrom: parseIso(from, `line ${lineNo} validFrom`),
    validTo: to ? parseIso(to, `line ${lineNo} validTo`) : null,
  };
  if (basis === BASES.VALUE) {
    if (!/^\d+$/.test(rate)) throw new ValidationError(`line ${lineNo} rate`, "per-mille must be whole");
    return { ...base, ratePermille: Number(rate) };
  }
  return { ...base, rateMinor: eurosToMinor(rate, `line ${lineNo} rate`) };
}

/** Blank lines and "#" comments are skipped; errors name the line. */
export function parseTariffBook(text) {
  const out = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    out.push(parseTariffLine(line, i + 1));
  });
  return out;
}

/** Loads a book into the registry in file order; a description from `names` replaces the code. */
export function importTariffBook(registry, text, names = {}) {
  return parseTariffBook(text).map((t) => registry.addVersion({ ...t, description: names[t.code] ?? t.description }));
}
