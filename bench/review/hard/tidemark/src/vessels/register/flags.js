// Flag states the register accepts, as ISO 3166 alpha-2 codes. The list is the port authority's:
// a flag not on it needs the harbour master's office to add it before the vessel can be registered.

import { ValidationError } from "../../core/errors.js";

export const FLAGS = Object.freeze({
  PT: "Portugal",
  ES: "Spain",
  FR: "France",
  NL: "Netherlands",
  DE: "Germany",
  GB: "United Kingdom",
  NO: "Norway",
  DK: "Denmark",
  MT: "Malta",
  CY: "Cyprus",
  GR: "Greece",
  PA: "Panama",
  LR: "Liberia",
  MH: "Marshall Islands",
  BS: "Bahamas",
  SG: "Singapore",
  HK: "Hong Kong",
  CN: "China",
  BR: "Brazil",
  MA: "Morocco",
  AG: "Antigua and Barbuda",
});

/** Open registries: vessels under these flags get the extra port-state-control look on arrival. */
export const OPEN_REGISTRIES = Object.freeze(["PA", "LR", "MH", "BS", "AG", "MT", "CY"]);

export function assertFlag(code, field = "flag") {
  const upper = typeof code === "string" ? code.trim().toUpperCase() : code;
  if (!Object.hasOwn(FLAGS, upper)) throw new ValidationError(field, `unknown flag ${code}`);
  return upper;
}

export const flagName = (code) => FLAGS[code] ?? code;

export const isOpenRegistry = (code) => OPEN_REGISTRIES.includes(code);
