// Shared fixtures for the platform tests: fake ports for vessels, billing and the message gateway,
// five users (one per staff role and two agents of different agencies) and a logged-in helper.
// (node --test also loads this file; it holds no tests.)

import { testContext, T0 } from "../support/context.js";
import { createPlatform } from "../../src/platform/index.js";
import { HOUR, DAY } from "../../src/core/time.js";

export { T0 };

export const PASSWORD = "correct horse battery";

export const VESSELS = [
  { id: "VSL-000001", name: "Maria Alvarim", imo: "9321483", agentId: "AGT-000001", lengthCm: 19_990, beamCm: 3_220, draftCm: 1_120 },
  { id: "VSL-000002", name: "Cabo Espichel", imo: "9454761", agentId: "AGT-000002", lengthCm: 22_450, beamCm: 3_230, draftCm: 1_280 },
  { id: "VSL-000003", name: "Tejo Star", imo: "9187301", agentId: "AGT-000001", lengthCm: 14_720, beamCm: 2_300, draftCm: 840 },
];

export const CALLS = [
  { id: "CAL-000001", vesselId: "VSL-000001", berthId: "B1-1", eta: T0 - DAY, etd: T0 + 6 * HOUR, status: "berthed" },
  { id: "CAL-000002", vesselId: "VSL-000002", berthId: "B1-3", eta: T0 + 2 * HOUR, etd: T0 + 30 * HOUR, status: "expected" },
  { id: "CAL-000003", vesselId: "VSL-000003", berthId: "B2-1", eta: T0 + DAY, etd: T0 + 2 * DAY, status: "expected" },
  { id: "CAL-000004", vesselId: "VSL-000001", berthId: "B2-2", eta: T0 - 10 * DAY, etd: T0 - 8 * DAY, status: "departed" },
];

export const INVOICES = [
  { id: "INV-000001", vesselId: "VSL-000001", accountId: "ACC-000001", netMinor: 100_000, vatMinor: 23_000, totalMinor: 123_000, currency: "EUR", issuedAt: T0 - 5 * DAY, dueAt: T0 + 25 * DAY, status: "open" },
  { id: "INV-000002", vesselId: "VSL-000002", accountId: "ACC-000002", netMinor: 50_005, vatMinor: 11_501, totalMinor: 61_506, currency: "EUR", issuedAt: T0 - 2 * DAY, dueAt: T0 + 28 * DAY, status: "open" },
  { id: "INV-000003", vesselId: "VSL-000003", accountId: "ACC-000001", netMinor: 80_000, vatMinor: 0, totalMinor: 80_000, currency: "USD", issuedAt: T0 - DAY, dueAt: T0 + 29 * DAY, status: "paid" },
];

export function fakeVessels({ vessels = VESSELS, calls = CALLS } = {}) {
  return {
    findVessel: (id) => vessels.find((v) => v.id === id) ?? null,
    listCalls: () => [...calls],
  };
}

export const fakeBilling = (invoices = INVOICES) => ({ listInvoices: () => [...invoices] });

/** A gateway that records what it sent; fail(n) makes the next n sends reject. */
export function fakeTransport() {
  const sent = [];
  let failing = 0;
  return {
    sent,
    fail(n = 1) {
      failing = n;
    },
    async send(message) {
      if (failing > 0) {
        failing--;
        throw new Error("gateway timeout");
      }
      sent.push(message);
    },
  };
}

export const USERS = {
  master: { name: "Rui Costa", email: "rui.costa@alvarim-port.pt", role: "harbour_master", phone: "+351912000001" },
  planner: { name: "Ana Reis", email: "ana.reis@alvarim-port.pt", role: "planner" },
  clerk: { name: "Joao Lima", email: "joao.lima@alvarim-port.pt", role: "clerk" },
  agentA: { name: "Marta Sousa", email: "ops@atlantica-agency.pt", role: "agent", agentId: "AGT-000001", phone: "+351913000002" },
  agentB: { name: "Pedro Neves", email: "ops@nortemar.pt", role: "agent", agentId: "AGT-000002" },
};

/** A platform on a test context with the five users added. */
export function makePlatform({ config, settings, flags, vessels, billing, transport } = {}) {
  const ctx = testContext(config);
  const deps = {
    vessels: vessels ?? fakeVessels(),
    billing: billing ?? fakeBilling(),
    transport: transport ?? fakeTransport(),
    settings,
    flags,
  };
  const platform = createPlatform(ctx, deps);
  const users = {};
  for (const [key, input] of Object.entries(USERS)) users[key] = platform.users.addUser(input, PASSWORD);
  return { ctx, deps, platform, users };
}

/** Logs a fixture user in and returns a request function that carries the token. */
export async function as(platform, user) {
  const session = await platform.login.login(user.email, PASSWORD);
  return (method, url, body) => platform.handle({ method, url, body, token: session.token });
}
