// The text of an arrival notice, as the agent's operations desk receives it: a subject line, the
// call, the vessel's particulars and who it is addressed to. Times print in UTC, minute precision.

import { toIso } from "../../core/time.js";
import { agentBlock } from "../agents/agent-format.js";
import { vesselParticulars, vesselTitle } from "../register/vessel-format.js";

const minute = (t) => `${toIso(t).slice(0, 16).replace("T", " ")} UTC`;

export function arrivalSubject(call, vessel) {
  return `[PTALV] Arrival ${vessel.name} voy. ${call.voyage} (${call.id})`;
}

/** The notice body, one line per entry. `agent` and `address` may be null (no agent declared). */
export function arrivalNoticeLines({ call, vessel, agent, address }) {
  const lines = [
    `Port of Alvarim — arrival of ${vesselTitle(vessel)}`,
    `Call: ${call.id}, voyage ${call.voyage}`,
    `Arrived: ${minute(call.arrivedAt)}`,
    `ETD: ${minute(call.etd)}`,
  ];
  if (call.lastPort) lines.push(`Last port: ${call.lastPort}`);
  lines.push("", ...vesselParticulars(vessel));
  if (agent && address) lines.push("", ...agentBlock(agent, address));
  else lines.push("", "Agent: none declared — harbour master's desk");
  return lines;
}

export const arrivalNoticeText = (parts) => arrivalNoticeLines(parts).join("\n");
