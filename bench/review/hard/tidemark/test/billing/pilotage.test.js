import assert from "node:assert/strict";
import { test } from "node:test";
import { chargePilotage, parsePilotLog } from "../../src/billing/charges/pilotage.js";
import { checkExport } from "../../src/billing/format/exportCheck.js";
import { DAY } from "../../src/core/time.js";
import { billingWorld, postOpen, sampleCall, T0 } from "./fixtures.js";

const LOG = `# pilot station, 2 March
CALL-000001;PBP-N;in;2026-03-02T05:10:00Z
CALL-000001;PBP-N;out;2026-03-04T01:20:00Z
CALL-000077;PBP-S;in;2026-03-02T09:00:00Z
`;

test("the pilot log names a boarding point and a direction", () => {
  const acts = parsePilotLog(LOG);
  assert.deepEqual(acts.map((a) => [a.lineNo, a.boardingPoint, a.direction]), [[2, "PBP-N", "in"], [3, "PBP-N", "out"], [4, "PBP-S", "in"]]);
  assert.throws(() => parsePilotLog("CALL-1;PBP-X;in;2026-03-02T05:10:00Z"), /unknown point PBP-X/);
  assert.throws(() => parsePilotLog("CALL-1;PBP-N;across;2026-03-02T05:10:00Z"), /direction/);
});

test("each pilotage act is charged on the call's account at its point's tariff", async () => {
  const { ports, billing, account } = billingWorld();
  billing.addTariff({ code: "T-PILOT-N", description: "Pilotage, north", basis: "gt-call", rateMinor: 6, validFrom: T0 - DAY });
  ports.addCall(sampleCall(account.id));
  const { raised, unknown } = chargePilotage(LOG, { deps: ports, charges: { raise: billing.raiseCharge } });
  assert.deepEqual(raised.map((c) => [c.tariffCode, c.quantity]), [["T-PILOT-N", 23_500], ["T-PILOT-N", 23_500]]);
  assert.deepEqual(unknown.map((a) => a.callId), ["CALL-000077"]);
  const posted = await postOpen(billing, account.id);
  assert.equal(posted.netMinor, 2 * 141_000);
});

test("the export checks out, and a tampered one does not", async () => {
  const { ports, billing, account } = billingWorld();
  ports.addCall(sampleCall(account.id));
  billing.chargeCall("CALL-000001");
  await postOpen(billing, account.id);
  const text = billing.exportPeriod({ start: T0, end: T0 + DAY });
  assert.deepEqual(checkExport(text), { ok: true, invoices: 1, problems: [] });
  const tampered = text.replace(";48000;11040", ";48001;11040");
  assert.deepEqual(checkExport(tampered).problems.map((p) => p.lineNo), [2]);
  assert.equal(checkExport("").ok, false);
});
