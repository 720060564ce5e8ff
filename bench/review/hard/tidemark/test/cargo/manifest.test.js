import assert from "node:assert/strict";
import { test } from "node:test";
import { parseDecimal, parseTable, splitLine } from "../../src/cargo/imports/csv.js";
import { manifestEntry } from "../../src/cargo/imports/manifest.js";
import { withCheckDigit } from "../../src/cargo/records/iso6346.js";
import { cargoUnderTest } from "./fixtures.js";

const A = withCheckDigit("CMA", 7001);
const B = withCheckDigit("CMA", 7002);
const C = withCheckDigit("HLX", 7003);

const MANIFEST = [
  "container;type;line;tare_t;gross_t;imdg;setpoint_c",
  `${A};22G1;CMA;2,2;18,45;;`,
  `${B};45R1;CMA;4,6;27,1;;-18`,
  "# a comment line the agents leave",
  `${C};22G1;HLX;2,2;1,5;3;`,
  `CMAU0000000;22G1;CMA;2,2;10;;`,
].join("\n");

test("fields split on semicolons outside quotes; decimals take a comma", () => {
  assert.deepEqual(splitLine('a; "b;c" ;d'), ["a", "b;c", "d"]);
  assert.equal(parseDecimal("24,5", "x"), 24.5);
  assert.equal(parseDecimal("", "x"), null);
  assert.throws(() => parseDecimal("2,4,5", "x"), /not a number/);
  assert.equal(parseTable(MANIFEST).length, 4);
  assert.equal(parseTable(MANIFEST)[2].lineNumber, 5);
});

test("tonnes become kilograms at the edge", () => {
  const entry = manifestEntry(parseTable(MANIFEST)[0]);
  assert.equal(entry.tareKg, 2_200);
  assert.equal(entry.grossKg, 18_450);
  assert.equal(entry.imdgClass, null);
  assert.equal("setPointC" in entry, false);
  assert.equal(manifestEntry(parseTable(MANIFEST)[1]).setPointC, -18);
});

test("good lines are registered, bad ones reported by line", () => {
  const { cargo } = cargoUnderTest();
  const { registered, refused } = cargo.importManifest(MANIFEST);
  assert.deepEqual(registered.map((c) => c.number), [A, B]);
  assert.equal(registered[0].vgmKg, null);
  assert.deepEqual(refused.map((r) => r.line), [5, 6]);
  assert.match(refused[0].reason, /grossKg/);
  assert.match(refused[1].reason, /number/);
});

test("VGM declarations come in tonnes", () => {
  const { cargo } = cargoUnderTest();
  cargo.importManifest(MANIFEST);
  const text = ["container;vgm_t;declared_by", `${A};18,61;Vale Logistica`, `${C};12;x`, `${B};;x`].join("\n");
  const { declared, refused } = cargo.importVgmDeclarations(text);
  assert.equal(declared[0].vgmKg, 18_610);
  assert.equal(declared[0].vgmDeclaredBy, "Vale Logistica");
  assert.deepEqual(refused.map((r) => r.line), [3, 4]);
});
