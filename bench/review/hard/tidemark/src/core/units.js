// Lengths, depths, drafts and tide heights are whole centimetres (`*Cm`); masses are whole
// kilograms (`*Kg`); durations are minutes (`*Minutes`) unless the name says otherwise.
// Imports from outside (AIS feeds, manifests) come in metres and tonnes: convert at the edge.

import { ValidationError } from "./errors.js";

export const metresToCm = (m) => Math.round(m * 100);
export const cmToMetres = (cm) => cm / 100;
export const tonnesToKg = (t) => Math.round(t * 1000);
export const kgToTonnes = (kg) => kg / 1000;

export function assertWhole(value, field) {
  if (!Number.isInteger(value) || value < 0) throw new ValidationError(field, `expected a whole, non-negative number, got ${value}`);
  return value;
}
