import assert from "node:assert/strict";
import { test } from "node:test";
import { sizeClassOf, pilotsRequired, licenceCovers } from "../../src/vessels/register/size-class.js";
import { vesselParticulars, formatMetres } from "../../src/vessels/register/vessel-format.js";
import { IMO, setup, vesselInput } from "./fixtures.js";

test("a vessel is registered once per IMO number", async () => {
  const { vessels, ctx } = setup();
  const seen = [];
  ctx.events.subscribe("vessel.registered", (e) => seen.push(e.imo));
  const v = await vessels.registerVessel(vesselInput({ imo: "IMO 9074729", name: " alvor  trader " }));
  assert.equal(v.id, "VSL-000001");
  assert.equal(v.name, "ALVOR TRADER");
  assert.deepEqual(seen, [IMO.trader]);
  await assert.rejects(vessels.registerVessel(vesselInput()), /already registered/);
  assert.equal(vessels.findByImo("IMO 9074729").id, v.id);
  assert.equal(vessels.findByImo(IMO.spare), null);
});

test("dimensions are whole centimetres", async () => {
  const { vessels } = setup();
  await assert.rejects(vessels.registerVessel(vesselInput({ loaCm: 294.1 })), /loaCm/);
  await assert.rejects(vessels.registerVessel(vesselInput({ beamCm: 40_000 })), /beamCm/);
  await assert.rejects(vessels.registerVessel(vesselInput({ flag: "XX" })), /unknown flag/);
});

test("an update checks the merged record and publishes after the write", async () => {
  const { vessels, ctx } = setup();
  const v = await vessels.registerVessel(vesselInput());
  let seenDraught = null;
  ctx.events.subscribe("vessel.updated", ({ vesselId }) => {
    seenDraught = vessels.getVessel(vesselId).draughtCm;
  });
  const next = await vessels.updateVessel(v.id, { draughtCm: 1_250 }, 1);
  assert.equal(next.version, 2);
  assert.equal(seenDraught, 1_250);
  await assert.rejects(vessels.updateVessel(v.id, { imo: IMO.spare }), /cannot be changed/);
  await assert.rejects(vessels.updateVessel(v.id, { draughtCm: 1_300 }, 1), /changed/);
});

test("size class takes the larger of length and tonnage", () => {
  assert.equal(sizeClassOf({ loaCm: 9_000, grossTonnage: 4_000 }), "S");
  assert.equal(sizeClassOf({ loaCm: 10_000, grossTonnage: 4_000 }), "M");
  assert.equal(sizeClassOf({ loaCm: 9_000, grossTonnage: 95_000 }), "XL");
  assert.equal(sizeClassOf(vesselInput()), "L");
  assert.equal(pilotsRequired("XL"), 2);
  assert.equal(licenceCovers("L", "M"), true);
  assert.equal(licenceCovers("M", "L"), false);
});

test("particulars print in metres with a decimal comma", () => {
  assert.equal(formatMetres(29_410), "294,1 m");
  assert.equal(formatMetres(3_200), "32 m");
  const lines = vesselParticulars({ id: "VSL-000001", ...vesselInput(), name: "ALVOR TRADER" });
  assert.ok(lines.includes("DWT: 68 000 t"));
  assert.ok(lines.includes("Size class: L"));
});

test("the vessel list pages in id order", async () => {
  const { vessels } = setup({ config: { paging: { defaultLimit: 2 } } });
  for (const imo of [IMO.trader, IMO.bulker, IMO.tanker]) await vessels.registerVessel(vesselInput({ imo, name: `V ${imo}` }));
  const first = vessels.listVessels();
  assert.deepEqual(first.items.map((v) => v.imo), [IMO.trader, IMO.bulker]);
  const second = vessels.listVessels({}, { cursor: first.nextCursor });
  assert.deepEqual(second.items.map((v) => v.imo), [IMO.tanker]);
  assert.equal(second.nextCursor, null);
});
