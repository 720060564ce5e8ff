import assert from "node:assert/strict";
import { test } from "node:test";
import { createPositionStore } from "../../src/vessels/ais/position-store.js";
import { STALE_AFTER_MINUTES, createStaleSweeper } from "../../src/vessels/ais/stale-sweeper.js";
import { testContext } from "../support/context.js";
import { T0, setup } from "./fixtures.js";

const MINUTE = 60_000;
const position = (at) => ({ imo: "9074729", at, latE6: 38_450_000, lonE6: -9_050_000, speedCmPerS: 0, courseDeg: 0, draughtCm: null, navStatus: "moored" });

test("the sweeper flags each stale position once", () => {
  const ctx = testContext();
  const positions = createPositionStore(ctx);
  const sweeper = createStaleSweeper(ctx, { positions });
  const stale = [];
  ctx.events.subscribe("vessel.position_stale", (e) => stale.push(e.vesselId));
  positions.record("VSL-000001", position(T0));
  positions.record("VSL-000002", position(T0 + 10 * MINUTE));
  sweeper.start();
  ctx.scheduler.tick(STALE_AFTER_MINUTES * MINUTE);
  assert.deepEqual(stale, ["VSL-000001"]);
  ctx.scheduler.tick(10 * MINUTE);
  assert.deepEqual(stale, ["VSL-000001", "VSL-000002"]);
  assert.equal(positions.latestOf("VSL-000001").stale, true);
  sweeper.stop();
  assert.equal(ctx.scheduler.pending(), 0);
});

test("a new position is fresh again", () => {
  const ctx = testContext();
  const positions = createPositionStore(ctx);
  const sweeper = createStaleSweeper(ctx, { positions });
  positions.record("VSL-000001", position(T0));
  ctx.clock.advance(20 * MINUTE);
  assert.deepEqual(sweeper.sweep(), ["VSL-000001"]);
  positions.record("VSL-000001", position(T0 + 20 * MINUTE));
  assert.equal(positions.latestOf("VSL-000001").stale, false);
  assert.equal(positions.latestOf("VSL-000001").at, T0 + 20 * MINUTE);
});

test("stopping the module releases its timers and listeners", () => {
  const { ctx, vessels } = setup();
  assert.equal(ctx.scheduler.pending(), 1);
  assert.equal(ctx.events.count("call.arrived"), 1);
  vessels.stop();
  assert.equal(ctx.scheduler.pending(), 0);
  for (const type of ["call.arrived", "call.eta_revised", "vessel.updated", "vessel.registered"]) assert.equal(ctx.events.count(type), 0, type);
});
