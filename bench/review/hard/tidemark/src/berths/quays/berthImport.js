// Berth definitions from the port's engineering office, in metres along the quay and metres of
// dredged depth:  B1-2,Q1,200.00,400.00,12.00,container|general,crane
// Converted to cm here; the registry validates the result like any other berth.

import { ValidationError } from "../../core/errors.js";
import { metresToCm } from "../../core/units.js";

const list = (cell) => (cell ? cell.split("|").map((s) => s.trim()).filter(Boolean) : []);

export function parseBerthSheet(text) {
  const berths = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const cells = line.split(",").map((c) => c.trim());
    if (cells.length < 6) throw new ValidationError("berth", `line ${i + 1}: expected at least 6 cells`);
    const [id, quayId, fromM, toM, depthM, types, facilities] = cells;
    const metres = [fromM, toM, depthM].map(Number);
    if (metres.some((m) => !Number.isFinite(m))) throw new ValidationError("berth", `line ${i + 1}: lengths must be metres`);
    berths.push({
      id,
      quayId,
      fromCm: metresToCm(metres[0]),
      toCm: metresToCm(metres[1]),
      depthCm: metresToCm(metres[2]),
      vesselTypes: list(types),
      facilities: list(facilities),
    });
  });
  return berths;
}

/** Adds every berth of a sheet; stops at the first refusal and says which line's berth it was. */
export function importBerths(registry, text) {
  const added = [];
  for (const input of parseBerthSheet(text)) {
    try {
      added.push(registry.addBerth(input));
    } catch (error) {
      error.message = `${input.id}: ${error.message}`;
      throw error;
    }
  }
  return added;
}
