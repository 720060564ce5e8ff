// Column helpers for the reports: how a value prints in a cell. Money through formatMinor (the
// port's "1 234,50 EUR"), lengths from centimetres to metres with two decimals, times as ISO UTC.

import { formatMinor } from "../../core/money.js";
import { cmToMetres } from "../../core/units.js";
import { toIso } from "../../core/time.js";

export const text = (header, pick) => ({ header, value: (row) => pick(row) ?? "" });

export const money = (header, pick, currencyOf = (row) => row.currency) => ({
  header,
  value: (row) => {
    const minor = pick(row);
    return minor === null || minor === undefined ? "" : formatMinor(minor, currencyOf(row));
  },
});

/** A length held in cm, printed in metres: 19990 → "199.90". */
export const metres = (header, pickCm) => ({
  header,
  value: (row) => {
    const cm = pickCm(row);
    return cm === null || cm === undefined ? "" : cmToMetres(cm).toFixed(2);
  },
});

export const time = (header, pick) => ({
  header,
  value: (row) => {
    const t = pick(row);
    return t === null || t === undefined ? "" : toIso(t);
  },
});

export const count = (header, pick) => ({ header, value: (row) => String(pick(row) ?? 0) });
