import assert from "node:assert/strict";
import { test } from "node:test";
import { createStore } from "../../src/core/store.js";
import { shiftsIn, shiftsOf } from "../../src/workforce/shifts/calendar.js";
import { at } from "./fixtures.js";

function store() {
  const shifts = createStore("shift");
  const add = (id, workerId, start, end, status = "assigned") => shifts.insert({ id, workerId, start, end, status });
  add("SHF-000001", "WRK-1", at(2, 6), at(2, 14));
  add("SHF-000002", "WRK-1", at(0, 6), at(0, 14));
  add("SHF-000003", "WRK-2", at(1, 6), at(1, 14));
  add("SHF-000004", "WRK-1", at(1, 6), at(1, 14), "released");
  add("SHF-000005", "WRK-1", at(1, 22), at(2, 4));
  return shifts;
}

test("a worker's live shifts come in start order", () => {
  assert.deepEqual(shiftsOf(store(), "WRK-1").map((s) => s.id), ["SHF-000002", "SHF-000005", "SHF-000001"]);
});

test("a window keeps the shifts that overlap it, half-open", () => {
  const shifts = store();
  assert.deepEqual(shiftsOf(shifts, "WRK-1", { start: at(0, 14), end: at(2, 6) }).map((s) => s.id), ["SHF-000005"]);
  assert.deepEqual(shiftsIn(shifts, { start: at(1, 0), end: at(2, 0) }).map((s) => s.id), ["SHF-000003", "SHF-000005"]);
});

test("the workforce calendar of a worker uses the same order", async () => {
  const { setup, certifiedWorker } = await import("./fixtures.js");
  const { wf, operations } = setup();
  const w = certifiedWorker(wf, { registrationNo: "ALV-0301" });
  operations.add({ id: "OP-2", start: at(3, 6), end: at(3, 14) });
  operations.add({ id: "OP-1", start: at(1, 6), end: at(1, 14) });
  await wf.assignWorker({ workerId: w.id, operationId: "OP-2", skill: "lashing" });
  await wf.assignWorker({ workerId: w.id, operationId: "OP-1", skill: "lashing" });
  assert.deepEqual(wf.workerCalendar(w.id).map((s) => s.operationId), ["OP-1", "OP-2"]);
});
