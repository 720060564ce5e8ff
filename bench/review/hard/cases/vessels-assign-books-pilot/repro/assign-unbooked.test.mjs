import assert from "node:assert/strict";
import { test } from "node:test";
import { createVessels } from "../src/vessels/index.js";
import { T0, testContext } from "../test/support/context.js";

const DAY = 86_400_000;

test("assigning a pilot to an unbooked movement settles and leaves the vessel unlocked", async () => {
  const ctx = testContext();
  const vessels = createVessels(ctx);
  const v = await vessels.registerVessel({
    imo: "9074729", name: "Alvor Trader", flag: "PT", type: "container",
    loaCm: 29_410, beamCm: 3_230, draughtCm: 1_180, grossTonnage: 54_000, deadweightKg: 68_000_000,
  });
  const call = await vessels.declareCall({ vesselId: v.id, voyage: "042N", eta: T0 + 2 * DAY, etd: T0 + 3 * DAY });
  const pilot = vessels.addPilot({ name: "Ana Lobo", licence: "XL" });
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error("assignPilot never settled")), 200);
  });
  const settled = vessels.assignPilot({ callId: call.id, movement: "in", pilotId: pilot.id }).then(
    () => "done",
    () => "refused",
  );
  try {
    const outcome = await Promise.race([settled, timeout]);
    assert.ok(outcome === "done" || outcome === "refused");
  } finally {
    clearTimeout(timer);
  }
  assert.equal(ctx.locks.isLocked(`vessel:${v.id}`), false);
});
