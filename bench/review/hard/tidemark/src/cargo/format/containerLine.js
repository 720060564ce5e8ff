// One line per box for the drivers' terminals and the planners' printouts:
// "MSCU1234565  45R1  A1-02-07-3  24,3 t  -18,0 °C  3.1"
// and a card with everything the gate clerk checks.

import { slotLabel } from "../records/slot.js";
import { imdgLabel } from "../records/imdg.js";
import { massOf, tonnesLabel } from "../containers/weights.js";
import { toIso } from "../../core/time.js";

const celsius = (c) => `${c.toFixed(1).replace(".", ",")} °C`;

export function containerLine(container) {
  const parts = [
    container.number,
    container.sizeType,
    container.slot ? slotLabel(container.slot) : container.status,
    tonnesLabel(massOf(container)),
  ];
  if (container.setPointC !== null) parts.push(celsius(container.setPointC));
  if (container.imdgClass !== null) parts.push(container.imdgClass);
  return parts.join("  ");
}

export const containerLines = (containers) => containers.map(containerLine).join("\n");

/** The gate clerk's card: one fact a line, VGM shown as missing rather than left out. */
export function containerCard(container) {
  const lines = [
    `${container.number} ${container.sizeType} (${container.line})`,
    `status   ${container.status}${container.slot ? ` at ${slotLabel(container.slot)}` : ""}`,
    `tare     ${tonnesLabel(container.tareKg)}`,
    `gross    ${tonnesLabel(container.grossKg)}`,
    `VGM      ${container.vgmKg === null ? "not declared" : `${tonnesLabel(container.vgmKg)} (${container.vgmDeclaredBy})`}`,
  ];
  if (container.setPointC !== null) lines.push(`reefer   ${celsius(container.setPointC)}`);
  if (container.imdgClass !== null) lines.push(`IMDG     ${imdgLabel(container.imdgClass)}`);
  if (container.gateInAt !== null) lines.push(`in       ${toIso(container.gateInAt)}`);
  if (container.gateOutAt !== null) lines.push(`out      ${toIso(container.gateOutAt)}`);
  return lines.join("\n");
}
