import assert from "node:assert/strict";
import { test } from "node:test";
import { stackingProblem } from "../../src/cargo/yard/stacking.js";
import { aBox, boxAt, cargoUnderTest, slot } from "./fixtures.js";

test("a box goes on top of its stack, never floating", async () => {
  const { cargo } = cargoUnderTest();
  await boxAt(cargo, "A1-01-01-1");
  const box = cargo.registerContainer(aBox());
  await assert.rejects(cargo.gateIn(box.id, slot("A1-01-01-3")), /not the top of its stack/);
  await assert.rejects(cargo.gateIn(box.id, slot("A1-01-01-1")), /not the top of its stack/);
  await cargo.gateIn(box.id, slot("A1-01-01-2"));
  assert.equal(cargo.getContainer(box.id).status, "in-yard");
});

test("heavier never stands on lighter", async () => {
  const { cargo } = cargoUnderTest();
  await boxAt(cargo, "A1-01-01-1", { grossKg: 10_000, vgmKg: 10_000 });
  const heavy = cargo.registerContainer(aBox({ grossKg: 20_000, vgmKg: 20_000 }));
  await assert.rejects(cargo.gateIn(heavy.id, slot("A1-01-01-2")), /heavier than/);
  const light = cargo.registerContainer(aBox({ grossKg: 9_000, vgmKg: 9_000 }));
  await cargo.gateIn(light.id, slot("A1-01-01-2"));
});

test("a 20-foot box does not stand on a 40-foot one", async () => {
  const { cargo } = cargoUnderTest();
  await boxAt(cargo, "A1-01-01-1", { sizeType: "45G1", tareKg: 3_900, grossKg: 20_000, vgmKg: 20_000 });
  const small = cargo.registerContainer(aBox());
  await assert.rejects(cargo.gateIn(small.id, slot("A1-01-01-2")), /does not fit/);
});

test("reefers go to reefer blocks, dangerous goods to licensed ones", () => {
  const block = { id: "A1", rows: 2, bays: 2, tiers: 2, reefer: false, dangerous: false };
  const reefer = { number: "X", sizeType: "22R1", setPointC: 2, imdgClass: null, grossKg: 10_000, vgmKg: null };
  assert.match(stackingProblem({ block, slot: slot("A1-01-01-1"), stack: [], container: reefer }), /no reefer plugs/);
  const dg = { number: "Y", sizeType: "22G1", setPointC: null, imdgClass: "3", grossKg: 10_000, vgmKg: null };
  assert.match(stackingProblem({ block, slot: slot("A1-01-01-1"), stack: [], container: dg }), /not licensed/);
  assert.throws(() => stackingProblem({ block, slot: slot("A1-03-01-1"), stack: [], container: dg }), /rows 1-2/);
});

test("placement publishes after the record names the slot", async () => {
  const { cargo, ctx } = cargoUnderTest();
  const seen = [];
  ctx.events.subscribe("cargo.container.placed", ({ containerId }) => seen.push(cargo.getContainer(containerId).slot));
  const box = await boxAt(cargo, "A1-02-03-1");
  assert.deepEqual(seen, [box.slot]);
  assert.equal(box.gateInAt, ctx.clock.now());
  await assert.rejects(cargo.gateIn(box.id, slot("A1-02-04-1")), /is in-yard/);
});

test("two trucks racing for one top slot: one wins", async () => {
  const { cargo } = cargoUnderTest();
  const a = cargo.registerContainer(aBox());
  const b = cargo.registerContainer(aBox());
  const results = await Promise.allSettled([cargo.gateIn(a.id, slot("A1-03-03-1")), cargo.gateIn(b.id, slot("A1-03-03-1"))]);
  assert.deepEqual(results.map((r) => r.status).toSorted(), ["fulfilled", "rejected"]);
});
