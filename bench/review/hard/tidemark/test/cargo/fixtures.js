// Shared fixtures for the cargo tests: a cargo module on the test context with fake ports, the
// test yard's blocks and boxes. (node --test loads this file too; it holds no tests.)

import { createCargo } from "../../src/cargo/index.js";
import { withCheckDigit } from "../../src/cargo/records/iso6346.js";
import { parseSlotLabel } from "../../src/cargo/records/slot.js";
import { testContext } from "../support/context.js";

export const BLOCK_A1 = Object.freeze({ id: "A1", rows: 4, bays: 6, tiers: 4 });
export const BLOCK_A2 = Object.freeze({ id: "A2", rows: 4, bays: 6, tiers: 4 });
export const BLOCK_R1 = Object.freeze({ id: "R1", rows: 2, bays: 4, tiers: 3, reefer: true });
export const BLOCK_R2 = Object.freeze({ id: "R2", rows: 2, bays: 4, tiers: 3, reefer: true });
export const BLOCK_D1 = Object.freeze({ id: "D1", rows: 6, bays: 6, tiers: 2, dangerous: true });

let serial = 100;
/** A fresh valid container number for each call. */
export const nextNumber = (owner = "MSC") => withCheckDigit(owner, serial++);

/** A dry 20' box as a booking announces it, VGM already declared. */
export function aBox(overrides = {}) {
  return { number: nextNumber(), sizeType: "22G1", line: "MSC", tareKg: 2_200, grossKg: 14_000, vgmKg: 14_000, ...overrides };
}

/** A 40' reefer of frozen fish. */
export function aReefer(overrides = {}) {
  return aBox({ sizeType: "45R1", tareKg: 4_600, grossKg: 26_000, vgmKg: 26_000, setPointC: -18, ...overrides });
}

/** The cargo module with fake billing and telemetry; charges and readings can be inspected. */
export function cargoUnderTest({ config, blocks = [BLOCK_A1, BLOCK_A2, BLOCK_R1, BLOCK_D1], temperatures = new Map() } = {}) {
  const ctx = testContext(config);
  const charges = [];
  const billing = { chargeStorage: (charge) => charges.push(charge) };
  const reeferTelemetry = { read: (number) => (temperatures.has(number) ? { tempC: temperatures.get(number) } : null) };
  const cargo = createCargo(ctx, { billing, reeferTelemetry });
  for (const block of blocks) cargo.createBlock(block);
  return { ctx, cargo, charges, temperatures };
}

/** Registers a box and brings it through the gate into the slot named by its label. */
export async function boxAt(cargo, label, overrides = {}) {
  const input = overrides.setPointC !== undefined || overrides.sizeType?.includes("R") ? aReefer(overrides) : aBox(overrides);
  const box = cargo.registerContainer(input);
  const { container } = await cargo.gateIn(box.id, parseSlotLabel(label));
  return container;
}

export const slot = parseSlotLabel;
