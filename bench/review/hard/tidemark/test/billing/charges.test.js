import assert from "node:assert/strict";
import { test } from "node:test";
import { reeferDaysOf } from "../../src/billing/charges/usage.js";
import { DAY, HOUR } from "../../src/core/time.js";
import { billingWorld, sampleCall, sampleMoves, T0 } from "./fixtures.js";

test("a departure raises port dues and berthage", () => {
  const { ctx, ports, billing, account } = billingWorld();
  ports.addCall(sampleCall(account.id), { callMoves: sampleMoves(4) });
  billing.start();
  ctx.events.publish("vessels.call.departed", { callId: "CALL-000001" });
  const open = billing.openCharges(account.id);
  const byCode = Object.fromEntries(open.map((c) => [c.tariffCode, c]));
  assert.equal(byCode["T-DUES"].quantity, 23_500);
  assert.equal(byCode["T-BERTH"].quantity, 400); // 200 m × 2 started days
  assert.equal(byCode["T-DUES"].source.ref, "CALL-000001");
  billing.stop();
});

test("a replayed departure does not charge twice", () => {
  const { ports, billing, account } = billingWorld();
  ports.addCall(sampleCall(account.id));
  const first = billing.chargeCall("CALL-000001");
  const second = billing.chargeCall("CALL-000001");
  assert.deepEqual(second.map((c) => c.id), first.map((c) => c.id));
  assert.equal(billing.openCharges(account.id).length, first.length);
});

test("stop() releases the departure subscription", () => {
  const { ctx, ports, billing, account } = billingWorld();
  ports.addCall(sampleCall(account.id));
  billing.start();
  billing.stop();
  assert.equal(ctx.events.count("vessels.call.departed"), 0);
  ctx.events.publish("vessels.call.departed", { callId: "CALL-000001" });
  assert.equal(billing.openCharges(account.id).length, 0);
});

test("an unknown or undeparted call is logged, not charged", () => {
  const { ctx, ports, billing, account } = billingWorld();
  ports.addCall(sampleCall(account.id, { id: "CALL-000002", departedAt: null }));
  assert.deepEqual(billing.chargeCall("CALL-404"), []);
  assert.deepEqual(billing.chargeCall("CALL-000002"), []);
  assert.deepEqual(ctx.log.lines.map((l) => l.message), ["billing: departed call not found", "billing: call has not departed"]);
});

test("no tariff in force means no charge and a warning", () => {
  const { ctx, billing, account } = billingWorld();
  const charge = billing.raiseCharge({ accountId: account.id, tariffCode: "T-PILOT", usage: { grossTonnage: 1 }, at: T0, source: { kind: "manual", ref: "x" } });
  assert.equal(charge, null);
  assert.equal(ctx.log.lines[0].message, "billing: no tariff in force");
});

test("reefer-days count started days, a box still plugged counts to departure", () => {
  const stays = [
    { containerId: "A", pluggedAt: T0, unpluggedAt: T0 + DAY },
    { containerId: "B", pluggedAt: T0, unpluggedAt: T0 + DAY + HOUR },
    { containerId: "C", pluggedAt: T0 + 10 * HOUR, unpluggedAt: null },
  ];
  assert.equal(reeferDaysOf(stays, T0 + 2 * DAY), 1 + 2 + 2);
});

test("a cancelled charge is not invoiced", async () => {
  const { ports, billing, account } = billingWorld();
  ports.addCall(sampleCall(account.id));
  const [dues, berth] = billing.chargeCall("CALL-000001");
  billing.cancelCharge(dues.id);
  const draft = await billing.draftInvoice(account.id);
  assert.ok(draft.chargeIds.includes(berth.id));
  assert.ok(!draft.chargeIds.includes(dues.id));
});
