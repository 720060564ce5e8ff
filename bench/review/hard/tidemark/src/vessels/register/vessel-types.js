// Vessel types the port distinguishes. The type decides which quays a vessel may use, whether a
// dangerous-goods declaration is always due, and how a call shows on the arrival board.

import { oneOf } from "../../core/validate.js";

export const VESSEL_TYPES = Object.freeze({
  container: { label: "Container ship", alwaysDangerousGoods: false, board: "CNT" },
  bulk: { label: "Bulk carrier", alwaysDangerousGoods: false, board: "BLK" },
  tanker: { label: "Tanker", alwaysDangerousGoods: true, board: "TNK" },
  gas: { label: "Gas carrier", alwaysDangerousGoods: true, board: "LNG" },
  roro: { label: "Ro-ro", alwaysDangerousGoods: false, board: "RORO" },
  reefer: { label: "Reefer ship", alwaysDangerousGoods: false, board: "RFR" },
  general: { label: "General cargo", alwaysDangerousGoods: false, board: "GEN" },
  cruise: { label: "Cruise ship", alwaysDangerousGoods: false, board: "PAX" },
  tug: { label: "Tug", alwaysDangerousGoods: false, board: "TUG" },
});

export const TYPE_CODES = Object.freeze(Object.keys(VESSEL_TYPES));

export const assertVesselType = (type, field = "type") => oneOf(type, TYPE_CODES, field);

export const typeLabel = (type) => VESSEL_TYPES[type]?.label ?? type;

export const boardCode = (type) => VESSEL_TYPES[type]?.board ?? "---";

/** Tankers and gas carriers declare dangerous goods on every call, even in ballast. */
export const alwaysDeclaresDangerousGoods = (type) => VESSEL_TYPES[type]?.alwaysDangerousGoods === true;

// Quays each type may use: tankers and gas carriers only at the outer quay (Q4), away from the
// passenger terminal at Q1; cruise ships only at Q1.
const QUAYS_BY_TYPE = Object.freeze({ tanker: ["Q4"], gas: ["Q4"], cruise: ["Q1"] });
const GENERAL_QUAYS = Object.freeze(["Q2", "Q3", "Q4"]);

export const quaysFor = (type) => QUAYS_BY_TYPE[type] ?? GENERAL_QUAYS;

export const mayUseQuay = (type, quayId) => quaysFor(type).includes(quayId);
