import assert from "node:assert/strict";
import { test } from "node:test";
import { testContext, T0 } from "../support/context.js";
import { createBerthStores } from "../../src/berths/stores.js";
import { createTideTable } from "../../src/berths/tides/tideTable.js";
import { importTidePredictions, parseTidePredictions } from "../../src/berths/tides/tideImport.js";
import { formatExtreme, tideBoard } from "../../src/berths/tides/tideFormat.js";

const FILE = `# Alvarim, heights over chart datum (m)
2026-03-02T04:12:00Z LW 0.85
2026-03-02T10:25:00Z HW 3,62
2026-03-02T16:37:00Z LW -0.05
`;

test("predictions in metres become whole cm", () => {
  const extremes = parseTidePredictions(FILE);
  assert.deepEqual(extremes.map((x) => x.heightCm), [85, 362, -5]);
  assert.equal(extremes[0].at, T0 + (4 * 60 + 12) * 60_000);
  assert.equal(extremes[1].kind, "high");
});

test("bad lines name their line", () => {
  assert.throws(() => parseTidePredictions("2026-03-02T04:12:00Z XW 1.0"), /line 1: unknown tide XW/);
  assert.throws(() => parseTidePredictions("\n2026-03-02T04:12:00Z LW one"), /line 2: not a height/);
  assert.throws(() => parseTidePredictions("yesterday LW 1.0"), /not an ISO time/);
});

test("an import loads the table", () => {
  const t = createTideTable(testContext(), createBerthStores());
  assert.equal(importTidePredictions(t, FILE), 3);
  assert.equal(t.heightAt(T0 + (10 * 60 + 25) * 60_000), 362);
});

test("the pilots' board prints metres with a comma", () => {
  const extremes = parseTidePredictions(FILE);
  assert.equal(formatExtreme(extremes[2]), "LW 16:37 -0,05 m");
  assert.deepEqual(tideBoard(extremes), ["2026-03-02: LW 04:12 0,85 m | HW 10:25 3,62 m | LW 16:37 -0,05 m"]);
});
