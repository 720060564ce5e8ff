// Pilotage, from the pilot station's log. A pilot boards at one of Alvarim's boarding points (PBP-N
// off the north breakwater, PBP-S in the southern approach, PBP-R up the river for the inner
// quays); each point has its own gross-tonnage tariff, T-PILOT-N, T-PILOT-S, T-PILOT-R, charged
// once per act (inbound and outbound are two acts).
//   callId;boardingPoint;direction;boardedIso

import { ValidationError } from "../../core/errors.js";
import { parseIso } from "../../core/time.js";

export const BOARDING_POINTS = Object.freeze({ "PBP-N": "T-PILOT-N", "PBP-S": "T-PILOT-S", "PBP-R": "T-PILOT-R" });
const DIRECTIONS = Object.freeze(["in", "out", "shift"]);

export function parsePilotLog(text) {
  const acts = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const [callId, point, direction, boarded, ...rest] = line.split(";").map((c) => c.trim());
    if (rest.length > 0 || !boarded) throw new ValidationError(`line ${i + 1}`, "expected 4 fields");
    if (!(point in BOARDING_POINTS)) throw new ValidationError(`line ${i + 1} boardingPoint`, `unknown point ${point}`);
    if (!DIRECTIONS.includes(direction)) throw new ValidationError(`line ${i + 1} direction`, `must be one of ${DIRECTIONS.join(", ")}`);
    acts.push({ lineNo: i + 1, callId, boardingPoint: point, direction, boardedAt: parseIso(boarded, `line ${i + 1} boarded`) });
  });
  return acts;
}

/** Raises one charge per act, on the call's account; acts for calls the vessel system doesn't know are returned. */
export function chargePilotage(text, { deps, charges }) {
  const raised = [];
  const unknown = [];
  for (const act of parsePilotLog(text)) {
    const call = deps.calls.findCall(act.callId);
    if (!call) {
      unknown.push(act);
      continue;
    }
    const charge = charges.raise({
      accountId: call.accountId,
      tariffCode: BOARDING_POINTS[act.boardingPoint],
      usage: { grossTonnage: call.grossTonnage },
      at: act.boardedAt,
      source: { kind: "manual", ref: `pilot:${act.callId}:${act.direction}:${act.boardedAt}` },
    });
    if (charge) raised.push(charge);
  }
  return { raised, unknown };
}
