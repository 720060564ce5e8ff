import assert from "node:assert/strict";
import { test } from "node:test";
import { testContext } from "../support/context.js";
import { createBerthStores } from "../../src/berths/stores.js";
import { createQuayRegistry } from "../../src/berths/quays/quayRegistry.js";
import { createBerthRegistry } from "../../src/berths/quays/berthRegistry.js";
import { parseQuaySurvey } from "../../src/berths/quays/quayImport.js";
import { importBerths, parseBerthSheet } from "../../src/berths/quays/berthImport.js";

const SURVEY = `quay,Q3,South Quay,250.40
bollard,Q3-01,0.00,80
bollard,Q3-02,24.95,80.5
`;

test("the quay survey comes in metres and tonnes", () => {
  const [q3] = parseQuaySurvey(SURVEY);
  assert.equal(q3.lengthCm, 25_040);
  assert.deepEqual(q3.bollards[1], { id: "Q3-02", atCm: 2_495, swlKg: 80_500 });
  assert.throws(() => parseQuaySurvey("bollard,Q4-01,0,10"), /before its quay/);
  assert.throws(() => parseQuaySurvey("crane,Q3,1"), /unknown record crane/);
});

test("a berth sheet in metres is imported through the registry", () => {
  const ctx = testContext();
  const stores = createBerthStores();
  const quays = createQuayRegistry(ctx, stores);
  const berths = createBerthRegistry(ctx, stores);
  for (const q of parseQuaySurvey(SURVEY)) quays.addQuay(q);
  const added = importBerths(berths, "B3-1,Q3,0,120.5,11.25,general|bulk\nB3-2,Q3,120.5,250.4,9.8,roro,ramp");
  assert.deepEqual(added.map((b) => [b.id, b.fromCm, b.toCm, b.depthCm]), [
    ["B3-1", 0, 12_050, 1_125],
    ["B3-2", 12_050, 25_040, 980],
  ]);
  assert.throws(() => importBerths(berths, "B3-3,Q3,240,260,9,general"), /B3-3: toCm: beyond/);
  assert.throws(() => parseBerthSheet("B3-3,Q3,x,2,3,general"), /must be metres/);
});
