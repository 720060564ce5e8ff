import assert from "node:assert/strict";
import { test } from "node:test";
import { T0, testContext } from "../test/support/context.js";
import { createBerths } from "../src/berths/index.js";

const HOUR = 3_600_000;
const at = (h) => T0 + h * HOUR;

async function world() {
  const ctx = testContext({ paging: { defaultLimit: 2 } });
  const vessels = { "VSL-000002": { id: "VSL-000002", name: "Costa Brava", type: "general", lengthCm: 12_000, draughtCm: 700 } };
  const berths = createBerths(ctx, { vessels: { findVessel: (id) => vessels[id] ?? null } });
  berths.addQuay({ id: "Q1", name: "North Quay", lengthCm: 60_000, bollards: [] });
  berths.addBerth({ id: "B1-1", quayId: "Q1", fromCm: 0, toCm: 20_000, depthCm: 1_400, vesselTypes: ["general"] });
  berths.loadTides(Array.from({ length: 40 }, (_, i) => ({ at: T0 - 2 * HOUR + i * 6 * HOUR, kind: i % 2 ? "high" : "low", heightCm: i % 2 ? 380 : 60 })));
  for (const [from, to] of [[30, 40], [2, 10], [10, 20], [50, 60]]) {
    await berths.createBooking({ berthId: "B1-1", vesselId: "VSL-000002", callId: `CALL-${from}`, start: at(from), end: at(to) });
  }
  return berths;
}

test("paging through the listing by arrival shows every booking once", async () => {
  const berths = await world();
  const seen = [];
  let cursor;
  for (let pages = 0; pages < 10; pages += 1) {
    const page = berths.listBookings({ order: "start", cursor });
    seen.push(...page.items.map((b) => b.id));
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  assert.deepEqual(seen.toSorted(), ["BKG-000001", "BKG-000002", "BKG-000003", "BKG-000004"]);
});
