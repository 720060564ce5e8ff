// Which mass the yard goes by. The verified gross mass wins once the shipper has declared it;
// until then the booking's declared gross is all there is.

import { kgToTonnes } from "../../core/units.js";

/** The mass stacking rules compare, in kg. */
export const massOf = (container) => container.vgmKg ?? container.grossKg;

export const payloadKg = (container) => massOf(container) - container.tareKg;

export const totalMassKg = (containers) => containers.reduce((sum, c) => sum + massOf(c), 0);

/** The box weighs more than the one it would stand on. */
export const heavierThan = (container, other) => massOf(container) > massOf(other);

/** "24,3 t" for the drivers' screens; tonnes with one decimal, Portuguese comma. */
export function tonnesLabel(kg) {
  return `${(Math.round(kgToTonnes(kg) * 10) / 10).toFixed(1).replace(".", ",")} t`;
}

/** Differences beyond this between VGM and booked gross are reported to the line. */
export const VGM_DEVIATION_PERMILLE = 50;

export function vgmDeviationPermille(container) {
  if (container.vgmKg === null) return null;
  return Math.round(((container.vgmKg - container.grossKg) * 1000) / container.grossKg);
}
