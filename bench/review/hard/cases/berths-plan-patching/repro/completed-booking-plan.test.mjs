import assert from "node:assert/strict";
import { test } from "node:test";
import { T0 } from "../test/support/context.js";
import { createBerthParts, berthsApi } from "../src/berths/index.js";
import { testContext } from "../test/support/context.js";

const HOUR = 3_600_000;

function world() {
  const ctx = testContext();
  const vessels = { findVessel: (id) => (id === "VSL-1" ? { id, name: "Costa Brava", type: "general", lengthCm: 12_000, draughtCm: 700 } : null) };
  const parts = createBerthParts(ctx, { vessels });
  parts.quays.addQuay({ id: "Q1", name: "North Quay", lengthCm: 60_000, bollards: [] });
  parts.berths.addBerth({ id: "B1-1", quayId: "Q1", fromCm: 0, toCm: 20_000, depthCm: 1_400, vesselTypes: ["general"], facilities: ["crane"] });
  parts.tides.load(Array.from({ length: 40 }, (_, i) => ({ at: T0 - 2 * HOUR + i * 6 * HOUR, kind: i % 2 ? "high" : "low", heightCm: i % 2 ? 380 : 60 })));
  return { ctx, api: berthsApi(parts) };
}

test("a completed booking leaves the berth's plan while the module runs", async () => {
  const { api } = world();
  api.start();
  try {
    const b = await api.createBooking({ berthId: "B1-1", vesselId: "VSL-1", callId: "CALL-1", start: T0 + 2 * HOUR, end: T0 + 14 * HOUR });
    assert.deepEqual(api.planOfBerth("B1-1").map((x) => x.id), [b.id]);
    await api.completeBooking(b.id);
    assert.deepEqual(api.planOfBerth("B1-1"), []);
  } finally {
    api.stop();
  }
});
