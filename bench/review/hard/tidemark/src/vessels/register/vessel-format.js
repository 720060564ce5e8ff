// How a vessel reads on screens and in notices: names in capitals, dimensions in metres with a
// decimal comma (the port's usage), tonnages with a thin space between thousands.

import { cmToMetres, kgToTonnes } from "../../core/units.js";
import { flagName } from "./flags.js";
import { formatImo } from "./imo.js";
import { sizeClassOf } from "./size-class.js";
import { typeLabel } from "./vessel-types.js";

const thousands = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, " ");

/** 29410 -> "294,1 m" */
export function formatMetres(cm) {
  const m = cmToMetres(cm);
  const text = Number.isInteger(m) ? String(m) : m.toFixed(2).replace(/0$/, "");
  return `${text.replace(".", ",")} m`;
}

/** 152000000 kg -> "152 000 t" */
export const formatTonnes = (kg) => `${thousands(Math.round(kgToTonnes(kg)))} t`;

/** "MSC ALVA (IMO 9074729, Panama)" */
export const vesselTitle = (vessel) => `${vessel.name} (${formatImo(vessel.imo)}, ${flagName(vessel.flag)})`;

/** The particulars block of a notice or a screen, one "label: value" line each. */
export function vesselParticulars(vessel) {
  return [
    ["Vessel", vesselTitle(vessel)],
    ["Type", typeLabel(vessel.type)],
    ["Call sign", vessel.callSign ?? "-"],
    ["LOA", formatMetres(vessel.loaCm)],
    ["Beam", formatMetres(vessel.beamCm)],
    ["Draught", formatMetres(vessel.draughtCm)],
    ["GT", thousands(vessel.grossTonnage)],
    ["DWT", formatTonnes(vessel.deadweightKg)],
    ["Size class", sizeClassOf(vessel)],
  ].map(([label, value]) => `${label}: ${value}`);
}
