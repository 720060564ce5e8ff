// Discharge manifests from the lines: one box a line, masses in tonnes. Columns:
//   container;type;line;tare_t;gross_t;imdg;setpoint_c
// imdg and setpoint_c may be empty. Tonnes become kilograms here, at the edge; a manifest never
// carries a VGM (that comes later, from the shipper). Bad lines are reported, good ones registered.

import { DomainError } from "../../core/errors.js";
import { tonnesToKg } from "../../core/units.js";
import { parseDecimal, parseTable } from "./csv.js";

export function manifestEntry(row) {
  const tareT = parseDecimal(row.tare_t, "tare_t");
  const grossT = parseDecimal(row.gross_t, "gross_t");
  const setPointC = parseDecimal(row.setpoint_c, "setpoint_c");
  return {
    number: row.container,
    sizeType: row.type,
    line: row.line,
    tareKg: tareT === null ? null : tonnesToKg(tareT),
    grossKg: grossT === null ? null : tonnesToKg(grossT),
    imdgClass: row.imdg === "" || row.imdg === undefined ? null : row.imdg,
    ...(setPointC === null ? {} : { setPointC }),
  };
}

/** Registers every good line; returns what was registered and what was refused, line by line. */
export function importManifest(registry, text) {
  const registered = [];
  const refused = [];
  for (const row of parseTable(text)) {
    try {
      registered.push(registry.registerContainer(manifestEntry(row)));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      refused.push({ line: row.lineNumber, number: row.container, reason: error.message });
    }
  }
  return { registered, refused };
}
