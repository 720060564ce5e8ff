// Imports the union's docker list ("registo de estivadores"), one worker a line:
//   ALV-0412;Nuno Reis;crane,lashing;42.5
// the last field is the crane lift rating in tonnes (empty for non-crane workers). Tonnes become
// kilograms here, at the edge; the rest of the module only sees maxLiftKg.

import { ValidationError } from "../../core/errors.js";
import { tonnesToKg } from "../../core/units.js";

export function parseWorkerList(text) {
  const rows = [];
  const errors = [];
  const lines = String(text).split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (!line || line.startsWith("#")) return;
    const fields = line.split(";").map((f) => f.trim());
    if (fields.length < 3) {
      errors.push({ line: index + 1, message: "expected registration;name;skills[;tonnes]" });
      return;
    }
    const [registrationNo, name, skillText, tonnesText = ""] = fields;
    const skills = skillText.split(",").map((s) => s.trim()).filter(Boolean);
    let maxLiftKg = null;
    if (tonnesText) {
      const tonnes = Number(tonnesText.replace(",", "."));
      if (!Number.isFinite(tonnes) || tonnes <= 0) {
        errors.push({ line: index + 1, message: `bad lift rating ${tonnesText}` });
        return;
      }
      maxLiftKg = tonnesToKg(tonnes);
    }
    rows.push({ registrationNo, name, skills, maxLiftKg });
  });
  return { rows, errors };
}

/** Registers every parsed row it can; a row that fails validation is reported, not fatal. */
export function importWorkers(registry, text) {
  const { rows, errors } = parseWorkerList(text);
  const imported = [];
  for (const row of rows) {
    try {
      imported.push(registry.registerWorker(row));
    } catch (error) {
      if (!(error instanceof ValidationError) && error.code !== "conflict") throw error;
      errors.push({ registrationNo: row.registrationNo, message: error.message });
    }
  }
  return { imported, errors };
}
