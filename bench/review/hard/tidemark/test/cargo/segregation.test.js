import assert from "node:assert/strict";
import { test } from "node:test";
import { IMDG_CLASSES } from "../../src/cargo/records/imdg.js";
import { minimumStacks, segregationLevel } from "../../src/cargo/dangerous/segregation.js";
import { aBox, BLOCK_D1, boxAt, cargoUnderTest, slot } from "./fixtures.js";

test("the table is symmetric and covers every class", () => {
  for (const a of IMDG_CLASSES) for (const b of IMDG_CLASSES) assert.equal(segregationLevel(a, b), segregationLevel(b, a), `${a}/${b}`);
  assert.equal(segregationLevel("3", "5.1"), 2);
  assert.equal(minimumStacks("9", "3"), 0);
  assert.equal(minimumStacks("1", "3"), Infinity);
});

test("flammable liquids keep two stacks from oxidisers", async () => {
  const { cargo } = cargoUnderTest({ blocks: [BLOCK_D1] });
  await boxAt(cargo, "D1-01-01-1", { imdgClass: "3" });
  const oxidiser = cargo.registerContainer(aBox({ imdgClass: "5.1" }));
  await assert.rejects(cargo.gateIn(oxidiser.id, slot("D1-02-02-1")), /separated from/);
  await cargo.gateIn(oxidiser.id, slot("D1-03-01-1"));
  assert.deepEqual(cargo.reports.dangerous.violations(), []);
});

test("class 9 stands next to anything", async () => {
  const { cargo } = cargoUnderTest({ blocks: [BLOCK_D1] });
  await boxAt(cargo, "D1-01-01-1", { imdgClass: "3" });
  await boxAt(cargo, "D1-01-01-2", { imdgClass: "9", grossKg: 9_000, vgmKg: 9_000 });
  assert.deepEqual(cargo.reports.dangerous.byClass().map((g) => g.imdgClass), ["3", "9"]);
});

test("the suggester keeps its distance too", async () => {
  const { cargo } = cargoUnderTest({ blocks: [BLOCK_D1] });
  await boxAt(cargo, "D1-01-01-1", { imdgClass: "3" });
  const oxidiser = cargo.registerContainer(aBox({ imdgClass: "5.1" }));
  const s = cargo.suggestSlot("D1", oxidiser);
  assert.ok(Math.max(Math.abs(s.row - 1), Math.abs(s.bay - 1)) >= 2);
});
