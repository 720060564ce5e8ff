// Imports vessel particulars from the classification societies' register extract: one line per
// vessel, semicolon separated, dimensions in metres and masses in tonnes. The extract is converted
// to centimetres and kilograms here, at the edge, and checked by the register on the way in.

import { ValidationError } from "../../core/errors.js";
import { metresToCm, tonnesToKg } from "../../core/units.js";

export const EXTRACT_COLUMNS = Object.freeze(["imo", "name", "flag", "type", "loaM", "beamM", "draughtM", "gt", "dwtT", "callSign"]);

function number(raw, column) {
  const n = Number(String(raw).trim().replace(",", "."));
  if (!Number.isFinite(n) || n < 0) throw new ValidationError(column, `not a number: ${raw}`);
  return n;
}

/** One extract line to a register input, or a ValidationError naming the column. */
export function parseExtractLine(line) {
  const cells = line.split(";");
  if (cells.length < EXTRACT_COLUMNS.length - 1) throw new ValidationError("line", `expected ${EXTRACT_COLUMNS.length} columns, got ${cells.length}`);
  const at = (name) => cells[EXTRACT_COLUMNS.indexOf(name)] ?? "";
  return {
    imo: at("imo").trim(),
    name: at("name").trim(),
    flag: at("flag").trim(),
    type: at("type").trim().toLowerCase(),
    loaCm: metresToCm(number(at("loaM"), "loaM")),
    beamCm: metresToCm(number(at("beamM"), "beamM")),
    draughtCm: metresToCm(number(at("draughtM"), "draughtM")),
    grossTonnage: Math.round(number(at("gt"), "gt")),
    deadweightKg: tonnesToKg(number(at("dwtT"), "dwtT")),
    callSign: at("callSign").trim() || null,
  };
}

/**
 * Registers every new vessel of an extract. Known IMO numbers are skipped (particulars change
 * through updateVessel, with the agent's confirmation); bad lines are reported by line number.
 */
export async function importExtract(register, text) {
  const result = { registered: [], skipped: [], errors: [] };
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.trim() || line.startsWith("#")) continue;
    try {
      const input = parseExtractLine(line);
      if (register.findByImo(input.imo)) {
        result.skipped.push(input.imo);
        continue;
      }
      const vessel = await register.registerVessel(input);
      result.registered.push(vessel.id);
    } catch (error) {
      result.errors.push({ line: i + 1, message: error.message });
    }
  }
  return result;
}
