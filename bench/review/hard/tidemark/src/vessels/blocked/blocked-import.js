// Imports the sanctions list the maritime authority publishes each morning: one entry a line,
// "SAN;<imo>;<reference>;<since>", since a calendar day (YYYY-MM-DD, UTC). A sanction runs from
// the start of that day until the list drops the vessel. Lines already imported (same IMO and
// reference) are skipped, so the whole file can be fed again every day.

import { ValidationError } from "../../core/errors.js";
import { parseIso } from "../../core/time.js";
import { assertImo } from "../register/imo.js";

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

function dayStart(text, field) {
  if (!DAY_RE.test(text)) throw new ValidationError(field, `expected YYYY-MM-DD, got ${text}`);
  return parseIso(`${text}T00:00:00Z`, field);
}

/** One line to the input of blockedList.block. */
export function parseBlockedLine(line) {
  const cells = line.split(";").map((cell) => cell.trim());
  const [code, imo, reference, since] = cells;
  if (code !== "SAN") throw new ValidationError("code", `unknown entry code ${code}`);
  if (!reference) throw new ValidationError("reference", "is required");
  return { imo: assertImo(imo), kind: "sanction", reference, start: dayStart(since ?? "", "since"), end: null };
}

/** Imports a list file into the blocked list; returns what was added, skipped and refused. */
export function importBlockedList(list, text) {
  const result = { added: [], skipped: 0, errors: [] };
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line || line.startsWith("#")) continue;
    try {
      const input = parseBlockedLine(line);
      const known = list.entriesFor(input.imo).some((entry) => entry.reference === input.reference);
      if (known) {
        result.skipped++;
        continue;
      }
      result.added.push(list.block(input).id);
    } catch (error) {
      result.errors.push({ line: i + 1, message: error.message });
    }
  }
  return result;
}
