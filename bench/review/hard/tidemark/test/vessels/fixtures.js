// Shared fixtures for the vessels tests: a module on a test context and inputs that pass every
// check, each overridable. (node --test loads this file too; it holds no tests.)

import { createVessels } from "../../src/vessels/index.js";
import { DAY, HOUR } from "../../src/core/time.js";
import { T0, testContext } from "../support/context.js";

export { T0 };

// Valid IMO numbers (check digit included).
export const IMO = Object.freeze({ trader: "9074729", bulker: "9321483", tanker: "9187655", tug: "9451238", spare: "9512343" });

/** A class L container ship: 294,1 m, GT 54 000, draught 11,8 m (boards at PBP-N). */
export function vesselInput(overrides = {}) {
  return {
    imo: IMO.trader,
    name: "Alvor Trader",
    flag: "PT",
    type: "container",
    callSign: "CQAB7",
    loaCm: 29_410,
    beamCm: 3_230,
    draughtCm: 1_180,
    grossTonnage: 54_000,
    deadweightKg: 68_000_000,
    ...overrides,
  };
}

/** A call two days out, staying a day. */
export function callInput(vesselId, overrides = {}) {
  return { vesselId, voyage: "042N", eta: T0 + 2 * DAY, etd: T0 + 3 * DAY, lastPort: "ESALG", ...overrides };
}

export const agentInput = (overrides = {}) => ({ code: "ALVSH", name: "Alvarim Shipping Lda", email: "ops@alvship.pt", phone: "+351 213 000 000", ...overrides });

export const crewList = (size = 3) => ({
  crew: Array.from({ length: size }, (_, i) => ({
    name: i === 0 ? "João Mar" : `Crew ${i}`,
    rank: i === 0 ? "master" : "rating",
    nationality: i % 2 ? "PH" : "PT",
    documentNo: `P${1000 + i}`,
  })),
});

/** The whole module on a fresh test context, started. */
export function setup({ config, deps } = {}) {
  const ctx = testContext(config);
  const vessels = createVessels(ctx, deps);
  vessels.start();
  return { ctx, vessels };
}

/** A module with one registered vessel and one declared call. */
export async function withCall(options = {}) {
  const { ctx, vessels } = setup(options);
  const vessel = await vessels.registerVessel(vesselInput(options.vessel));
  const call = await vessels.declareCall(callInput(vessel.id, options.call));
  return { ctx, vessels, vessel, call };
}

export { DAY, HOUR };
