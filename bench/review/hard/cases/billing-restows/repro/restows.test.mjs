import assert from "node:assert/strict";
import { test } from "node:test";
import { createBilling } from "../src/billing/index.js";
import { DAY, HOUR } from "../src/core/time.js";
import { T0, testContext } from "../test/support/context.js";

test("a call's loads and discharges are charged as moves", () => {
  // ports shaped as src/billing/ports.js documents them
  const call = { id: "CALL-1", vesselId: "VSL-1", accountId: null, grossTonnage: 9_800, lengthCm: 14_000, berthedAt: T0, departedAt: T0 + DAY };
  const moves = [
    { containerId: "MSCU4100000", kind: "discharge", at: T0 + HOUR },
    { containerId: "MSCU4100001", kind: "load", at: T0 + 2 * HOUR },
    { containerId: "MSCU4100002", kind: "load", at: T0 + 3 * HOUR },
  ];
  const billing = createBilling(testContext(), {
    calls: { findCall: (id) => (id === call.id ? call : null) },
    cargo: { movesFor: () => moves, reeferStaysFor: () => [] },
  });
  billing.addTariff({ code: "T-MOVE", description: "Container move", basis: "move", rateMinor: 8_500, validFrom: T0 - DAY });
  call.accountId = billing.openAccount({ code: "LUSAG", name: "Lusitania Shipping Agency" }).id;
  const raised = billing.chargeCall("CALL-1");
  const moveCharge = raised.find((c) => c.tariffCode === "T-MOVE");
  assert.ok(moveCharge, "no move charge raised");
  assert.equal(moveCharge.quantity, 3);
});
