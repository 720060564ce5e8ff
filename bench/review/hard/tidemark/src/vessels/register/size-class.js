// Size classes: the pilot station sorts vessels by length overall and gross tonnage, whichever
// puts the vessel in the larger class. The class decides how many pilots board, how long a pilot
// rests afterwards and which licence a pilot needs.

export const SIZE_CLASSES = Object.freeze(["S", "M", "L", "XL"]);

// Upper bounds, exclusive: a vessel of exactly 10 000 cm (100 m) is class M.
const BY_LOA_CM = [
  { cls: "S", below: 10_000 },
  { cls: "M", below: 20_000 },
  { cls: "L", below: 30_000 },
];
const BY_GROSS_TONNAGE = [
  { cls: "S", below: 5_000 },
  { cls: "M", below: 30_000 },
  { cls: "L", below: 90_000 },
];

const rank = (cls) => SIZE_CLASSES.indexOf(cls);

function classFor(value, bands) {
  for (const band of bands) if (value < band.below) return band.cls;
  return "XL";
}

/** The size class of a vessel record (loaCm, grossTonnage). */
export function sizeClassOf(vessel) {
  const byLength = classFor(vessel.loaCm, BY_LOA_CM);
  const byTonnage = classFor(vessel.grossTonnage, BY_GROSS_TONNAGE);
  return rank(byLength) >= rank(byTonnage) ? byLength : byTonnage;
}

/** True when a pilot licensed up to `licence` may take a vessel of class `cls`. */
export const licenceCovers = (licence, cls) => rank(licence) >= rank(cls);

/** Two pilots board class XL vessels; everything else takes one. */
export const pilotsRequired = (cls) => (cls === "XL" ? 2 : 1);

export const compareSizeClass = (a, b) => rank(a) - rank(b);
