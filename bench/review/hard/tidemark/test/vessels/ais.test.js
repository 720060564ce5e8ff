import assert from "node:assert/strict";
import { test } from "node:test";
import { knotsToCmPerS, parsePosition } from "../../src/vessels/ais/ais-parse.js";
import { distanceCm, insidePortLimits } from "../../src/vessels/ais/geo.js";
import { speedingLegs } from "../../src/vessels/ais/track.js";
import { IMO, T0, setup, vesselInput } from "./fixtures.js";

const iso = (ms) => new Date(ms).toISOString();
const feedLine = (overrides = {}) => JSON.stringify({ imo: IMO.trader, ts: iso(T0), lat: 38.45, lon: -9.05, sog: 10, cog: 92.4, draught: 11.8, navStatus: "underway", ...overrides });

test("the feed is converted at the edge", () => {
  const p = parsePosition(JSON.parse(feedLine()));
  assert.equal(p.at, T0);
  assert.equal(p.latE6, 38_450_000);
  assert.equal(p.speedCmPerS, 514);
  assert.equal(p.courseDeg, 92);
  assert.equal(p.draughtCm, 1_180);
  assert.equal(knotsToCmPerS(1), 51);
  assert.throws(() => parsePosition({ imo: IMO.trader, ts: iso(T0), lat: 91, lon: 0 }), /lat: out of range/);
});

test("feed positions are resolved by IMO and announced", async () => {
  const { ctx, vessels } = setup();
  const v = await vessels.registerVessel(vesselInput());
  const announced = [];
  ctx.events.subscribe("vessel.position", (e) => announced.push(e.at));
  const feed = [feedLine(), feedLine({ ts: iso(T0 + 60_000), lat: 38.46 }), feedLine({ imo: IMO.spare }), "garbage", ""].join("\n");
  const result = vessels.importAis(feed);
  assert.equal(result.imported, 2);
  assert.deepEqual(result.unknown, [IMO.spare]);
  assert.deepEqual(result.errors, [{ line: 4, message: "not JSON" }]);
  assert.deepEqual(announced, [T0, T0 + 60_000]);
  assert.equal(vessels.latestPosition(v.id).latE6, 38_460_000);
  vessels.importAis(feed);
  assert.equal(vessels.trackSummary(v.id).points, 2);
});

test("a late, older report joins the track but not the latest position", async () => {
  const { vessels } = setup();
  const v = await vessels.registerVessel(vesselInput());
  vessels.importAis(feedLine({ ts: iso(T0 + 120_000), lat: 38.47 }));
  vessels.importAis(feedLine({ ts: iso(T0), lat: 38.45 }));
  assert.equal(vessels.latestPosition(v.id).at, T0 + 120_000);
  const summary = vessels.trackSummary(v.id);
  assert.equal(summary.points, 2);
  assert.equal(summary.from, T0);
  assert.ok(summary.distanceCm > 200_000 && summary.distanceCm < 250_000, String(summary.distanceCm));
  assert.equal(vessels.trackSummary(v.id, { start: T0, end: T0 + 120_000 }).points, 1);
});

test("distances and port limits", () => {
  const a = { latE6: 38_450_000, lonE6: -9_050_000 };
  const b = { latE6: 38_460_000, lonE6: -9_050_000 };
  assert.equal(distanceCm(a, a), 0);
  assert.equal(Math.round(distanceCm(a, b) / 100), 1_112);
  assert.equal(insidePortLimits(a), true);
  assert.equal(insidePortLimits({ latE6: 38_520_000, lonE6: -9_000_000 }), false);
  const track = [{ ...a, at: T0 }, { ...b, at: T0 + 60_000 }];
  assert.equal(speedingLegs(track, 1_000).length, 1);
  assert.equal(speedingLegs(track, 2_000).length, 0);
});
