import assert from "node:assert/strict";
import { test } from "node:test";
import { T0, testContext } from "../test/support/context.js";
import { createBerths } from "../src/berths/index.js";

const HOUR = 3_600_000;
const at = (h) => T0 + h * HOUR;

function world() {
  const ctx = testContext();
  const vessels = { "VSL-000002": { id: "VSL-000002", name: "Costa Brava", type: "general", lengthCm: 12_000, draughtCm: 700 } };
  const berths = createBerths(ctx, { vessels: { findVessel: (id) => vessels[id] ?? null } });
  berths.addQuay({ id: "Q1", name: "North Quay", lengthCm: 60_000, bollards: [] });
  berths.addBerth({ id: "B1-1", quayId: "Q1", fromCm: 0, toCm: 20_000, depthCm: 1_400, vesselTypes: ["general"] });
  berths.loadTides(Array.from({ length: 40 }, (_, i) => ({ at: T0 - 2 * HOUR + i * 6 * HOUR, kind: i % 2 ? "high" : "low", heightCm: i % 2 ? 380 : 60 })));
  return { ctx, berths };
}

test("the suggestion for a berth is its earliest window that takes the stay", async () => {
  const { berths } = world();
  berths.start();
  await berths.createBooking({ berthId: "B1-1", vesselId: "VSL-000002", callId: "CALL-1", start: at(4), end: at(10) });
  const [s] = berths.suggestBerths({ vesselId: "VSL-000002", earliest: at(0), latest: at(30), stayMinutes: 180 });
  assert.equal(s.berthId, "B1-1");
  assert.equal(s.start, at(0));
  assert.equal(s.end, at(3));
  berths.stop();
});
