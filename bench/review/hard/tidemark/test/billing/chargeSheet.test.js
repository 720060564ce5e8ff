import assert from "node:assert/strict";
import { test } from "node:test";
import { chargeSheet, parseSheet } from "../../src/billing/charges/import.js";
import { billingWorld } from "./fixtures.js";

const SHEET = `# fishing quay, week 10
LUSAG;Nossa Senhora da Luz;24,35;180;2026-03-02T04:00:00Z;2026-03-02T19:00:00Z
TAGUS;Mar Alto;31.2;260;2026-03-03T05:00:00Z;2026-03-04T07:00:00Z
`;

test("the sheet's metres become centimetres", () => {
  const rows = parseSheet(SHEET);
  assert.deepEqual(rows.map((r) => [r.lineNo, r.lengthCm, r.grossTonnage]), [[2, 2_435, 180], [3, 3_120, 260]]);
  assert.throws(() => parseSheet("LUSAG;x;0;180;2026-03-02T04:00:00Z;2026-03-02T19:00:00Z"), /not a length/);
  assert.throws(() => parseSheet("LUSAG;x;20;180;2026-03-02T19:00:00Z;2026-03-02T04:00:00Z"), /after arrival/);
});

test("known agents are charged dues and berthage, unknown ones reported", () => {
  const { billing, account } = billingWorld();
  const result = chargeSheet(SHEET, {
    accounts: { findByCode: billing.findAccountByCode },
    charges: { raise: billing.raiseCharge },
  });
  assert.deepEqual(result.unknown, [{ lineNo: 3, agentCode: "TAGUS" }]);
  assert.deepEqual(result.raised.map((c) => [c.tariffCode, c.quantity, c.accountId]), [
    ["T-DUES", 180, account.id],
    ["T-BERTH", 25, account.id], // 25 started metres × 1 day
  ]);
});
