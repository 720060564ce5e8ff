import assert from "node:assert/strict";
import { test } from "node:test";
import { createVessels } from "../src/vessels/index.js";
import { T0, testContext } from "../test/support/context.js";

const HOUR = 3_600_000;

test("a busy month's report counts every call", async () => {
  const ctx = testContext();
  const vessels = createVessels(ctx);
  const v = await vessels.registerVessel({
    imo: "9074729", name: "Alvor Trader", flag: "PT", type: "container",
    loaCm: 29_410, beamCm: 3_230, draughtCm: 1_180, grossTonnage: 54_000, deadweightKg: 68_000_000,
  });
  const total = 250;
  for (let i = 0; i < total; i++) {
    const eta = T0 + HOUR + i * 2 * HOUR;
    await vessels.declareCall({ vesselId: v.id, voyage: `${String(i + 1).padStart(3, "0")}N`, eta, etd: eta + 2 * HOUR });
  }
  const report = vessels.monthlyCallsReport("2026-03");
  assert.equal(report.calls, total);
  assert.deepEqual(report.byFlag, { PT: total });
});
