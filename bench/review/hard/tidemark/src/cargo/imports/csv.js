// The lines' manifests are semicolon-separated text with a header line, decimals written with a
// comma ("24,5") the way Alvarim's agents send them. Quoted fields may hold semicolons.

import { ValidationError } from "../../core/errors.js";

export function splitLine(line) {
  const fields = [];
  let current = "";
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ";" && !quoted) {
      fields.push(current.trim());
      current = "";
    } else current += ch;
  }
  fields.push(current.trim());
  return fields;
}

/** Rows as objects keyed by the header's lower-case names, each with its 1-based lineNumber. */
export function parseTable(text) {
  const lines = String(text).split(/\r?\n/).map((l, i) => ({ text: l, lineNumber: i + 1 })).filter((l) => l.text.trim() !== "" && !l.text.startsWith("#"));
  if (lines.length === 0) return [];
  const header = splitLine(lines[0].text).map((h) => h.toLowerCase());
  return lines.slice(1).map(({ text: t, lineNumber }) => {
    const fields = splitLine(t);
    const row = { lineNumber };
    header.forEach((name, i) => {
      row[name] = fields[i] ?? "";
    });
    return row;
  });
}

/** "24,5" or "24.5" → 24.5; an empty field is null. */
export function parseDecimal(text, field) {
  if (text === undefined || text === null || String(text).trim() === "") return null;
  const value = Number(String(text).trim().replace(",", "."));
  if (!Number.isFinite(value)) throw new ValidationError(field, `not a number: ${text}`);
  return value;
}
