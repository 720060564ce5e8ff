import assert from "node:assert/strict";
import { test } from "node:test";
import { newContainer } from "../../src/cargo/records/container.js";
import { isReeferType, sameFootprint, sizeTypeOf, teuOf } from "../../src/cargo/records/sizeType.js";
import { massOf, tonnesLabel, vgmDeviationPermille } from "../../src/cargo/containers/weights.js";
import { aBox, aReefer, cargoUnderTest } from "./fixtures.js";

test("a new box starts announced, nowhere", () => {
  const c = newContainer(aBox({ vgmKg: undefined }), "CTR-000001");
  assert.equal(c.status, "announced");
  assert.equal(c.slot, null);
  assert.equal(c.vgmKg, null);
  assert.equal(c.setPointC, null);
  assert.equal(massOf(c), c.grossKg);
});

test("masses are whole kilograms and the gross carries the tare", () => {
  assert.throws(() => newContainer(aBox({ tareKg: 2_200.5 }), "CTR-1"), /tareKg/);
  assert.throws(() => newContainer(aBox({ grossKg: 1_000 }), "CTR-1"), /grossKg/);
  assert.throws(() => newContainer(aBox({ vgmKg: 1_000 }), "CTR-1"), /vgmKg/);
});

test("reefers and only reefers take a set-point", () => {
  assert.throws(() => newContainer(aReefer({ setPointC: undefined }), "CTR-1"), /setPointC/);
  assert.throws(() => newContainer(aBox({ setPointC: 4 }), "CTR-1"), /setPointC/);
  assert.throws(() => newContainer(aReefer({ setPointC: -40 }), "CTR-1"), /between/);
  assert.throws(() => newContainer(aReefer({ setPointC: 2.25 }), "CTR-1"), /one decimal/);
  assert.equal(newContainer(aReefer({ setPointC: 2.5 }), "CTR-1").setPointC, 2.5);
});

test("size/type codes", () => {
  assert.equal(teuOf("45G1"), 2);
  assert.equal(isReeferType("22R1"), true);
  assert.equal(sameFootprint("22G1", "22T6"), true);
  assert.equal(sameFootprint("22G1", "42G1"), false);
  assert.throws(() => sizeTypeOf("99X9"), /unknown size\/type/);
});

test("weights print in tonnes with a comma", () => {
  assert.equal(tonnesLabel(24_349), "24,3 t");
  assert.equal(vgmDeviationPermille({ vgmKg: 10_500, grossKg: 10_000 }), 50);
  assert.equal(vgmDeviationPermille({ vgmKg: null, grossKg: 10_000 }), null);
});

test("registration refuses a wrong number and a live duplicate", () => {
  const { cargo, ctx } = cargoUnderTest();
  const seen = [];
  ctx.events.subscribe("cargo.container.registered", (e) => seen.push(e));
  assert.throws(() => cargo.registerContainer(aBox({ number: "CSQU3054384" })), { name: "ValidationError", field: "number" });
  const box = cargo.registerContainer(aBox({ number: "csqu 305438 3" }));
  assert.equal(box.number, "CSQU3054383");
  assert.throws(() => cargo.registerContainer(aBox({ number: "CSQU3054383" })), /already announced/);
  assert.deepEqual(seen, [{ containerId: box.id, number: "CSQU3054383" }]);
});
