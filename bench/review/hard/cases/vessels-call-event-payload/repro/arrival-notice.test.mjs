import assert from "node:assert/strict";
import { test } from "node:test";
import { createVessels } from "../src/vessels/index.js";
import { T0, testContext } from "../test/support/context.js";

const DAY = 86_400_000;

test("subscribers to call.arrived see the arrived call, and the notice its arrival time", async () => {
  const ctx = testContext();
  const vessels = createVessels(ctx);
  vessels.start();
  const v = await vessels.registerVessel({
    imo: "9074729", name: "Alvor Trader", flag: "PT", type: "container",
    loaCm: 29_410, beamCm: 3_230, draughtCm: 1_180, grossTonnage: 54_000, deadweightKg: 68_000_000,
  });
  const call = await vessels.declareCall({ vesselId: v.id, voyage: "042N", eta: T0 + 2 * DAY, etd: T0 + 3 * DAY });
  const seenStates = [];
  ctx.events.subscribe("call.arrived", ({ callId }) => seenStates.push(vessels.getCall(callId).state));
  ctx.clock.advance(2 * DAY);
  await vessels.arrive(call.id);
  assert.deepEqual(seenStates, ["arrived"]);
  const [notice] = vessels.noticesFor(call.id);
  assert.equal(notice.arrivedAt, T0 + 2 * DAY);
  assert.match(notice.text, /Arrived: 2026-03-04 00:00 UTC/);
  vessels.stop();
});
