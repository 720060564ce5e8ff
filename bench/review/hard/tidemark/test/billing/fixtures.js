// Shared fixtures for billing tests: a context, fake ports shaped as src/billing/ports.js says,
// the port's tariff book and one agent's account. (node --test loads this file too; it holds no tests.)

import { createBilling } from "../../src/billing/index.js";
import { DAY, HOUR } from "../../src/core/time.js";
import { T0, testContext } from "../support/context.js";

export { T0 };

/** In force from a year before T0, open-ended. */
export const TARIFF_BOOK = Object.freeze([
  { code: "T-DUES", description: "Port dues", basis: "gt-call", rateMinor: 45 },
  { code: "T-BERTH", description: "Berthage", basis: "metre-day", rateMinor: 120 },
  { code: "T-MOVE", description: "Container move", basis: "move", rateMinor: 8_500 },
  { code: "T-REEFER", description: "Reefer plug", basis: "reefer-day", rateMinor: 3_200 },
  { code: "T-WHARF", description: "Wharfage", basis: "value", ratePermille: 3 },
]);

/** Ports for the calls and cargo a test sets up; unknown calls are null, as the real port says. */
export function fakePorts() {
  const calls = new Map();
  const moves = new Map();
  const reefers = new Map();
  return {
    calls: { findCall: (id) => calls.get(id) ?? null },
    cargo: {
      movesFor: (callId) => moves.get(callId) ?? [],
      reeferStaysFor: (callId) => reefers.get(callId) ?? [],
    },
    addCall(call, { callMoves = [], reeferStays = [] } = {}) {
      calls.set(call.id, call);
      moves.set(call.id, callMoves);
      reefers.set(call.id, reeferStays);
      return call;
    },
  };
}

/** MSC Alvarim Leonor: 23 500 GT, 199.40 m, alongside from 06:00 on day 0 to 02:00 on day 2. */
export function sampleCall(accountId, overrides = {}) {
  return {
    id: "CALL-000001",
    vesselId: "VSL-000007",
    accountId,
    grossTonnage: 23_500,
    lengthCm: 19_940,
    berthedAt: T0 + 6 * HOUR,
    departedAt: T0 + 2 * DAY + 2 * HOUR,
    ...overrides,
  };
}

export const sampleMoves = (n = 3) =>
  Array.from({ length: n }, (_, i) => ({ containerId: `MSCU${String(4_100_000 + i)}`, kind: i % 2 ? "load" : "discharge", at: T0 + 8 * HOUR + i * 600_000 }));

/** A billing with the tariff book loaded and one open account (LUSAG). */
export function billingWorld(configOverrides = {}) {
  const ctx = testContext(configOverrides);
  const ports = fakePorts();
  const billing = createBilling(ctx, ports);
  for (const t of TARIFF_BOOK) billing.addTariff({ ...t, validFrom: T0 - 365 * DAY });
  const account = billing.openAccount({ code: "LUSAG", name: "Lusitania Shipping Agency", email: "accounts@lusag.example" });
  return { ctx, ports, billing, account };
}

let billOfLading = 0;

/** Raises one wharfage charge (3 ‰ of the declared value) per value, each on its own bill of lading. */
export function raiseWharfage(billing, accountId, values, at = T0) {
  return values.map((valueMinor) =>
    billing.raiseCharge({ accountId, tariffCode: "T-WHARF", usage: { valueMinor }, at, source: { kind: "manual", ref: `BL-${++billOfLading}` } }),
  );
}

/** Drafts and posts one invoice of the account's open charges. */
export async function postOpen(billing, accountId) {
  const draft = await billing.draftInvoice(accountId);
  return billing.postInvoice(draft.id);
}
