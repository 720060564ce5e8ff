import assert from "node:assert/strict";
import { test } from "node:test";
import { formatClearanceCm, formatCm, formatKg, formatPermille } from "../../src/berths/formatters/metres.js";
import { berthLabel, quayBoard, statusLabel } from "../../src/berths/formatters/berthLabel.js";
import { durationLabel, stayLabel } from "../../src/berths/formatters/timeLabel.js";
import { overlapMinutes, worstConflict } from "../../src/berths/plan/overlap.js";
import { storeSizes } from "../../src/berths/stores.js";
import { berthWorld, BERTHS, at } from "./fixtures.js";

test("lengths and loads print the Portuguese way", () => {
  assert.equal(formatCm(123_456), "1 234,56 m");
  assert.equal(formatCm(-5), "-0,05 m");
  assert.equal(formatKg(100_000), "100,0 t");
  assert.equal(formatKg(1_250_500), "1 250,5 t");
  assert.equal(formatClearanceCm(160), "+1,60 m");
  assert.equal(formatClearanceCm(-40), "-0,40 m");
  assert.equal(formatPermille(725), "72,5 %");
});

test("stays and durations", () => {
  assert.equal(stayLabel({ start: at(2), end: at(26.5) }), "02/03 02:00 → 03/03 02:30");
  assert.equal(durationLabel(1_710), "1 d 4 h 30 min");
  assert.equal(durationLabel(0), "0 min");
});

test("berth labels and the quay board", () => {
  assert.equal(berthLabel(BERTHS[1]), "B1-2 Q1 200,00 m · 12,00 m · container, general, reefer");
  assert.equal(statusLabel({ berthId: "B1-1", state: "free", until: null }), "B1-1 free");
  const board = quayBoard({ id: "Q1", name: "North Quay" }, [
    { berthId: "B1-1", state: "alongside", vesselId: "VSL-000002", until: at(10) },
    { berthId: "B1-3", state: "closed", until: at(12), reason: "dredging" },
  ]);
  assert.equal(board, "Q1 North Quay\n  B1-1 VSL-000002 alongside until 02/03 10:00\n  B1-3 closed until 02/03 12:00 (dredging)");
});

test("overlap minutes and the worst conflict", () => {
  assert.equal(overlapMinutes({ start: at(0), end: at(2) }, { start: at(1), end: at(5) }), 60);
  assert.equal(overlapMinutes({ start: at(0), end: at(2) }, { start: at(2), end: at(5) }), 0);
  const worst = worstConflict([{ id: "a", start: at(0), end: at(2) }, { id: "b", start: at(3), end: at(9) }], { start: at(1), end: at(6) });
  assert.deepEqual([worst.booking.id, worst.minutes], ["b", 180]);
});

test("store sizes for the health page", () => {
  const { parts } = berthWorld();
  assert.deepEqual(storeSizes(parts.stores), { quays: 2, berths: 4, bookings: 0, tides: 390, closures: 0 });
});
