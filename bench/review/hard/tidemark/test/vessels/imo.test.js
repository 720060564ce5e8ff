import assert from "node:assert/strict";
import { test } from "node:test";
import { assertImo, imoCheckDigit, isValidImo, normaliseImo } from "../../src/vessels/register/imo.js";
import { IMO } from "./fixtures.js";

test("the check digit is the last digit of the weighted sum", () => {
  assert.equal(imoCheckDigit("907472"), 9);
  assert.equal(isValidImo("9074729"), true);
  assert.equal(isValidImo("9074728"), false);
});

test("prefixes and spaces are dropped", () => {
  assert.equal(normaliseImo(" IMO 9074729 "), "9074729");
  assert.equal(normaliseImo("imo9074729"), "9074729");
  assert.equal(assertImo("IMO 9321483"), "9321483");
});

test("every fixture IMO is valid", () => {
  for (const imo of Object.values(IMO)) assert.equal(isValidImo(imo), true, imo);
});

test("a wrong check digit says which digit it wanted", () => {
  assert.throws(() => assertImo("9074720"), /should be 9/);
  assert.throws(() => assertImo("12345"), /seven digits/);
});
