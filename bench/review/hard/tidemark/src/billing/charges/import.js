// The harbour master's sheet of calls worked outside the vessel system (fishing quay, small craft):
//   agentCode;vessel;loaMetres;grossTonnage;arrivedIso;departedIso
// Length comes in metres and becomes centimetres here, at the edge.

import { ValidationError } from "../../core/errors.js";
import { parseIso } from "../../core/time.js";
import { metresToCm } from "../../core/units.js";
import { usageForSheetRow } from "./usage.js";

export function parseSheetLine(line, lineNo) {
  const cells = line.split(";").map((c) => c.trim());
  if (cells.length !== 6) throw new ValidationError(`line ${lineNo}`, "expected 6 fields");
  const [agentCode, vessel, loa, gt, arrived, departed] = cells;
  const metres = Number(loa.replace(",", "."));
  if (!(metres > 0)) throw new ValidationError(`line ${lineNo} loa`, `not a length: ${loa}`);
  if (!/^\d+$/.test(gt)) throw new ValidationError(`line ${lineNo} gt`, `not a tonnage: ${gt}`);
  const arrivedAt = parseIso(arrived, `line ${lineNo} arrived`);
  const departedAt = parseIso(departed, `line ${lineNo} departed`);
  if (departedAt <= arrivedAt) throw new ValidationError(`line ${lineNo} departed`, "must be after arrival");
  return { lineNo, agentCode, vessel, lengthCm: metresToCm(metres), grossTonnage: Number(gt), arrivedAt, departedAt };
}

export function parseSheet(text) {
  return text
    .split(/\r?\n/)
    .map((raw, i) => [raw.trim(), i + 1])
    .filter(([line]) => line !== "" && !line.startsWith("#"))
    .map(([line, lineNo]) => parseSheetLine(line, lineNo));
}

/** Raises dues and berthage for each row; an unknown agent code is reported, not guessed. */
export function chargeSheet(text, { accounts, charges }) {
  const raised = [];
  const unknown = [];
  for (const row of parseSheet(text)) {
    const account = accounts.findByCode(row.agentCode);
    if (!account) {
      unknown.push({ lineNo: row.lineNo, agentCode: row.agentCode });
      continue;
    }
    const usage = usageForSheetRow(row);
    const ref = `sheet:${row.vessel}:${row.arrivedAt}`;
    for (const tariffCode of ["T-DUES", "T-BERTH"]) {
      const charge = charges.raise({ accountId: account.id, tariffCode, usage, at: row.arrivedAt, source: { kind: "manual", ref } });
      if (charge) raised.push(charge);
    }
  }
  return { raised, unknown };
}
