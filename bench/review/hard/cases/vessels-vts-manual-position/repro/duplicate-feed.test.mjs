import assert from "node:assert/strict";
import { test } from "node:test";
import { createAisImport } from "../src/vessels/ais/ais-import.js";
import { createPositionStore } from "../src/vessels/ais/position-store.js";
import { T0, testContext } from "../test/support/context.js";

test("a repeated feed line is counted as a duplicate and announced once", () => {
  const ctx = testContext();
  const positions = createPositionStore(ctx);
  const vessels = { byImo: (imo) => (imo === "9074729" ? { id: "VSL-000001", imo } : null) };
  const ais = createAisImport(ctx, { vessels, positions });
  const announced = [];
  ctx.events.subscribe("vessel.position", (e) => announced.push(e.at));
  const line = JSON.stringify({ imo: "9074729", ts: new Date(T0).toISOString(), lat: 38.45, lon: -9.05, sog: 10, cog: 90 });
  const result = ais.importFeed([line, line, line].join("\n"));
  assert.equal(result.imported, 1);
  assert.equal(result.duplicates, 2);
  assert.deepEqual(announced, [T0]);
});
