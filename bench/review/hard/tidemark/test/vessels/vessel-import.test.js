import assert from "node:assert/strict";
import { test } from "node:test";
import { parseExtractLine } from "../../src/vessels/register/vessel-import.js";
import { IMO, setup } from "./fixtures.js";

const EXTRACT = [
  "# imo;name;flag;type;loaM;beamM;draughtM;gt;dwtT;callSign",
  `${IMO.bulker};Cabo Verde Star;LR;bulk;189,99;32,26;12,5;32000;58000,5;D5AB1`,
  `${IMO.tanker};Rio Sado;MT;tanker;183;32.2;11.02;29500;49999;9HAA2`,
  `12345;Bad;PT;bulk;100;20;5;3000;4000;`,
  "",
].join("\n");

test("metres and tonnes become centimetres and kilograms", () => {
  const input = parseExtractLine(`${IMO.bulker};Cabo Verde Star;LR;bulk;189,99;32,26;12,5;32000;58000,5;D5AB1`);
  assert.equal(input.loaCm, 18_999);
  assert.equal(input.beamCm, 3_226);
  assert.equal(input.draughtCm, 1_250);
  assert.equal(input.deadweightKg, 58_000_500);
});

test("an extract registers new vessels, skips known ones and reports bad lines", async () => {
  const { vessels } = setup();
  const first = await vessels.importVesselExtract(EXTRACT);
  assert.equal(first.registered.length, 2);
  assert.equal(first.errors.length, 1);
  assert.equal(first.errors[0].line, 4);
  const again = await vessels.importVesselExtract(EXTRACT);
  assert.deepEqual(again.skipped, [IMO.bulker, IMO.tanker]);
  assert.equal(vessels.findByImo(IMO.tanker).draughtCm, 1_102);
});
