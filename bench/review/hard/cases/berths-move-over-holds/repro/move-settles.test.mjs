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
  berths.addBerth({ id: "B1-2", quayId: "Q1", fromCm: 20_000, toCm: 40_000, depthCm: 1_200, vesselTypes: ["general"] });
  berths.loadTides(Array.from({ length: 40 }, (_, i) => ({ at: T0 - 2 * HOUR + i * 6 * HOUR, kind: i % 2 ? "high" : "low", heightCm: i % 2 ? 380 : 60 })));
  return { ctx, berths };
}

test("moving a confirmed booking onto a berth with an overlapping hold finishes and frees the locks", async () => {
  const { ctx, berths } = world();
  await berths.placeHold({ berthId: "B1-2", vesselId: "VSL-000002", callId: "CALL-1", start: at(10), end: at(20) });
  const mine = await berths.createBooking({ berthId: "B1-1", vesselId: "VSL-000002", callId: "CALL-2", start: at(12), end: at(16) });
  let timer;
  const hung = new Promise((resolve) => {
    timer = setTimeout(() => resolve("hung"), 200);
  });
  const outcome = await Promise.race([
    berths.moveBooking(mine.id, "B1-2").then(
      () => "moved",
      () => "refused",
    ),
    hung,
  ]);
  clearTimeout(timer);
  assert.notEqual(outcome, "hung");
  assert.equal(ctx.locks.isLocked("berth:B1-2"), false);
  assert.equal(ctx.locks.isLocked("berth:B1-1"), false);
});
