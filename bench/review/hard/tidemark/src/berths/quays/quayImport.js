// The harbour master's quay survey, as the survey office sends it: one line per quay or bollard,
// lengths in metres and safe working loads in tonnes. Converted to cm and kg here, at the edge.
//   quay,Q1,North Quay,600.00
//   bollard,Q1-01,0.00,100

import { ValidationError } from "../../core/errors.js";
import { metresToCm, tonnesToKg } from "../../core/units.js";

function number(text, line, field) {
  const n = Number(text);
  if (text === undefined || text.trim() === "" || !Number.isFinite(n)) throw new ValidationError(field, `line ${line}: not a number: ${text}`);
  return n;
}

export function parseQuaySurvey(text) {
  const quays = new Map();
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const cells = line.split(",").map((c) => c.trim());
    if (cells[0] === "quay") {
      const [, id, name, lengthM] = cells;
      if (quays.has(id)) throw new ValidationError("quay", `line ${i + 1}: quay ${id} twice`);
      quays.set(id, { id, name, lengthCm: metresToCm(number(lengthM, i + 1, "lengthM")), bollards: [] });
    } else if (cells[0] === "bollard") {
      const [, id, atM, swlT] = cells;
      const quay = quays.get(id.slice(0, id.indexOf("-")));
      if (!quay) throw new ValidationError("bollard", `line ${i + 1}: bollard ${id} before its quay`);
      quay.bollards.push({ id, atCm: metresToCm(number(atM, i + 1, "atM")), swlKg: tonnesToKg(number(swlT, i + 1, "swlT")) });
    } else {
      throw new ValidationError("survey", `line ${i + 1}: unknown record ${cells[0]}`);
    }
  });
  return [...quays.values()];
}
