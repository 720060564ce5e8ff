import assert from "node:assert/strict";
import { test } from "node:test";
import { assertContainerNumber, checkDigit, isValidNumber, normaliseNumber, ownerCode, withCheckDigit } from "../../src/cargo/records/iso6346.js";

test("the check digit of the standard's own example", () => {
  assert.equal(checkDigit("CSQU305438"), 3);
  assert.equal(isValidNumber("CSQU3054383"), true);
  assert.equal(isValidNumber("CSQU3054384"), false);
});

test("a remainder of ten is written as zero", () => {
  // find a serial whose sum leaves 10 and check it prints 0
  let found = null;
  for (let n = 0; n < 200 && !found; n++) {
    const first10 = `TGHU${String(n).padStart(6, "0")}`;
    let sum = 0;
    const values = { T: 31, G: 17, H: 18, U: 32 };
    for (let i = 0; i < 10; i++) sum += (values[first10[i]] ?? Number(first10[i])) * 2 ** i;
    if (sum % 11 === 10) found = first10;
  }
  assert.ok(found);
  assert.equal(checkDigit(found), 0);
});

test("numbers are normalised before they are checked", () => {
  assert.equal(normaliseNumber(" csqu 305438-3 "), "CSQU3054383");
  assert.equal(ownerCode("CSQU3054383"), "CSQ");
  assert.equal(isValidNumber(withCheckDigit("MSC", 42)), true);
});

test("shape and check digit are told apart", () => {
  assert.throws(() => assertContainerNumber("CSQ3054383"), /not a container number/);
  assert.throws(() => assertContainerNumber("CSQU3054384"), /wrong check digit/);
  assert.throws(() => assertContainerNumber("CSQX3054383"), /not a container number/);
});
