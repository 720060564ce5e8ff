// VGM declarations the shippers' portal sends in batches: container;vgm_t;declared_by. Tonnes to
// kilograms at the edge; a declaration for a box the yard has no live record of is refused.

import { DomainError, ValidationError } from "../../core/errors.js";
import { tonnesToKg } from "../../core/units.js";
import { parseDecimal, parseTable } from "./csv.js";

export function importVgmDeclarations({ registry, vgm }, text) {
  const declared = [];
  const refused = [];
  for (const row of parseTable(text)) {
    try {
      const container = registry.findByNumber(row.container);
      if (container === null) throw new ValidationError("container", `no live container ${row.container}`);
      const tonnes = parseDecimal(row.vgm_t, "vgm_t");
      if (tonnes === null) throw new ValidationError("vgm_t", "is required");
      declared.push(vgm.declareVgm(container.id, tonnesToKg(tonnes), { declaredBy: row.declared_by || "shipper" }));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      refused.push({ line: row.lineNumber, number: row.container, reason: error.message });
    }
  }
  return { declared, refused };
}
