// The berth module's test world: quays Q1 and Q2 of Alvarim with their berths, a regular
// semi-diurnal tide table around T0 and a fake vessels port. (node --test also loads this file;
// it holds no tests.)

import { HOUR, MINUTE } from "../../src/core/time.js";
import { T0, testContext } from "../support/context.js";
import { berthsApi, createBerthParts } from "../../src/berths/index.js";

export { T0 };
export const at = (hours) => T0 + hours * HOUR;

export const VESSELS = Object.freeze({
  "VSL-000001": { id: "VSL-000001", name: "Maria Alvim", type: "container", lengthCm: 18_000, draughtCm: 1_250 },
  "VSL-000002": { id: "VSL-000002", name: "Costa Brava", type: "general", lengthCm: 12_000, draughtCm: 700 },
  "VSL-000003": { id: "VSL-000003", name: "Ro Alvarim", type: "roro", lengthCm: 15_000, draughtCm: 650 },
  "VSL-000004": { id: "VSL-000004", name: "Tejo Spirit", type: "tanker", lengthCm: 24_000, draughtCm: 1_450 },
  "VSL-000005": { id: "VSL-000005", name: "Sines Trader", type: "general", lengthCm: 19_800, draughtCm: 800 },
});

export function fakeVessels(extra = {}) {
  const all = { ...VESSELS, ...extra };
  return { findVessel: (id) => all[id] ?? null };
}

const bollards = (quayId, lengthCm, everyCm, swlKg) =>
  Array.from({ length: Math.floor(lengthCm / everyCm) + 1 }, (_, i) => ({
    id: `${quayId}-${String(i + 1).padStart(2, "0")}`,
    atCm: i * everyCm,
    swlKg,
  }));

export const QUAYS = [
  { id: "Q1", name: "North Quay", lengthCm: 60_000, bollards: bollards("Q1", 60_000, 2_500, 100_000) },
  { id: "Q2", name: "Oil Jetty", lengthCm: 35_000, bollards: bollards("Q2", 35_000, 3_500, 150_000) },
];

export const BERTHS = [
  { id: "B1-1", quayId: "Q1", fromCm: 0, toCm: 20_000, depthCm: 1_400, vesselTypes: ["container", "general"], facilities: ["crane"] },
  { id: "B1-2", quayId: "Q1", fromCm: 20_000, toCm: 40_000, depthCm: 1_200, vesselTypes: ["container", "general", "reefer"], facilities: ["crane", "shore-power"] },
  { id: "B1-3", quayId: "Q1", fromCm: 40_000, toCm: 60_000, depthCm: 900, vesselTypes: ["general", "roro"], facilities: ["ramp"] },
  { id: "B2-1", quayId: "Q2", fromCm: 0, toCm: 35_000, depthCm: 1_600, vesselTypes: ["tanker", "bulk"], facilities: ["pipeline"] },
];

// Low water 60 cm, high water 380 cm, every 6 h 12 min 30 s from a low water two hours before T0,
// for 100 days: past the booking horizon.
export const TIDE_HALF_PERIOD = 6 * HOUR + 12 * MINUTE + 30_000;

export function tideExtremes({ lowCm = 60, highCm = 380, from = T0 - 2 * HOUR, count = 390 } = {}) {
  return Array.from({ length: count }, (_, i) => ({
    at: from + i * TIDE_HALF_PERIOD,
    kind: i % 2 === 0 ? "low" : "high",
    heightCm: i % 2 === 0 ? lowCm : highCm,
  }));
}

/** A context, the module's parts wired on it, and the public functions over those parts. */
export function berthWorld({ config = {}, tides = {}, vessels = {} } = {}) {
  const ctx = testContext(config);
  const parts = createBerthParts(ctx, { vessels: fakeVessels(vessels) });
  for (const q of QUAYS) parts.quays.addQuay(q);
  for (const b of BERTHS) parts.berths.addBerth(b);
  if (tides !== null) parts.tides.load(tideExtremes(tides));
  return { ctx, parts, api: berthsApi(parts) };
}

let calls = 0;
/** A booking input for a vessel at a berth from hour `from` to hour `to` after T0. */
export function bookingInput(berthId, vesselId, from, to, extra = {}) {
  calls += 1;
  return { berthId, vesselId, callId: `CALL-${String(calls).padStart(6, "0")}`, start: at(from), end: at(to), ...extra };
}
