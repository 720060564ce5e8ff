import assert from "node:assert/strict";
import { test } from "node:test";
import { DAY } from "../../src/core/time.js";
import { billingWorld, postOpen, raiseWharfage, sampleCall, T0 } from "./fixtures.js";

test("the export writes H, I, L and T records in a fixed order", async () => {
  const { ctx, ports, billing, account } = billingWorld();
  ports.addCall(sampleCall(account.id));
  billing.chargeCall("CALL-000001");
  await postOpen(billing, account.id);
  ctx.clock.set(T0 + DAY);
  raiseWharfage(billing, account.id, [5_000_000], T0 + DAY);
  await postOpen(billing, account.id);
  const text = billing.exportPeriod({ start: T0, end: T0 + 31 * DAY });
  assert.equal(
    text,
    [
      "H;PTALV;2026-03-02;2026-04-02",
      "I;PTALV-2026-000001;LUSAG;2026-03-02;2026-04-01;1105500;254265;1359765",
      "L;PTALV-2026-000001;1;T-DUES;23500;0;1057500;243225",
      "L;PTALV-2026-000001;2;T-BERTH;400;0;48000;11040",
      "I;PTALV-2026-000002;LUSAG;2026-03-03;2026-04-02;15000;3450;18450",
      "L;PTALV-2026-000002;1;T-WHARF;5000000;0;15000;3450",
      "T;2;1120500;257715;1378215",
      "",
    ].join("\n"),
  );
});

test("the period is half-open and drafts are left out", async () => {
  const { ctx, billing, account } = billingWorld();
  raiseWharfage(billing, account.id, [5_000_000]);
  await postOpen(billing, account.id);
  ctx.clock.set(T0 + DAY);
  raiseWharfage(billing, account.id, [6_000_000], T0 + DAY);
  await billing.draftInvoice(account.id);
  assert.match(billing.exportPeriod({ start: T0, end: T0 + DAY }), /T;1;15000;3450;18450/);
  assert.match(billing.exportPeriod({ start: T0 + DAY, end: T0 + 2 * DAY }), /T;0;0;0;0/);
});
