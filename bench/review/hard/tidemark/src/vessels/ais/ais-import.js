// Imports a chunk of the AIS feed. Each position is resolved to a registered vessel by IMO (vessels
// the register does not know are counted and dropped), kept once per timestamp, and announced as
// "vessel.position" for the berth planner and the arrival board.

import { splitFeed, parsePosition } from "./ais-parse.js";

/** deps.vessels: { byImo(imo) -> { id, ... } | null } (the vessel cache). deps.positions: the position store. */
export function createAisImport(ctx, { vessels, positions }) {
  function importOne(raw, summary) {
    const position = parsePosition(raw);
    const vessel = vessels.byImo(position.imo);
    if (!vessel) {
      summary.unknown.add(position.imo);
      return;
    }
    if (positions.record(vessel.id, position)) {
      summary.imported++;
      ctx.events.publish("vessel.position", { vesselId: vessel.id, at: position.at, latE6: position.latE6, lonE6: position.lonE6 });
    } else {
      summary.duplicates++;
    }
  }

  /** Imports feed text; returns counts and the lines that could not be read. */
  function importFeed(text) {
    const summary = { imported: 0, duplicates: 0, unknown: new Set(), errors: [] };
    for (const entry of splitFeed(text)) {
      if (entry.error) {
        summary.errors.push({ line: entry.line, message: entry.error });
        continue;
      }
      try {
        importOne(entry.raw, summary);
      } catch (error) {
        summary.errors.push({ line: entry.line, message: error.message });
      }
    }
    const result = { ...summary, unknown: [...summary.unknown].sort() };
    ctx.log("info", "ais import", { imported: result.imported, duplicates: result.duplicates, unknown: result.unknown.length, errors: result.errors.length });
    return result;
  }

  return { importFeed };
}
