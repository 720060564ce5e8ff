// The hydrographic office's tide predictions, one extreme a line, heights in metres over chart
// datum:   2026-03-02T04:12Z LW 0.85
// Converted to cm here (metresToCm rounds to whole cm); nothing inside the module sees metres.

import { ValidationError } from "../../core/errors.js";
import { parseIso } from "../../core/time.js";
import { metresToCm } from "../../core/units.js";

const KINDS = { HW: "high", LW: "low" };

export function parseTidePredictions(text) {
  const extremes = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const [when, code, metres, ...rest] = line.split(/\s+/);
    if (rest.length > 0 || metres === undefined) throw new ValidationError("tides", `line ${i + 1}: expected "<time> HW|LW <metres>"`);
    const kind = KINDS[code];
    if (!kind) throw new ValidationError("tides", `line ${i + 1}: unknown tide ${code}`);
    const heightM = Number(metres.replace(",", "."));
    if (!Number.isFinite(heightM)) throw new ValidationError("tides", `line ${i + 1}: not a height: ${metres}`);
    extremes.push({ at: parseIso(when, `line ${i + 1}`), kind, heightCm: metresToCm(heightM) });
  });
  return extremes;
}

/** Parses and loads a prediction file into the table; returns how many extremes it held. */
export function importTidePredictions(table, text) {
  return table.load(parseTidePredictions(text));
}
