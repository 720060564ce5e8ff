// One line per box for the drivers' terminals and the planners' printouts:
// "MSCU1234565  45R1  A1-02-07-3  24,3 t  -18,0 °C  3.1"

import { slotLabel } from "../records/slot.js";
import { massOf, tonnesLabel } from "../containers/weights.js";

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
