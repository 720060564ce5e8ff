import assert from "node:assert/strict";
import { test } from "node:test";
import { setup } from "./fixtures.js";

function seed(wf, n) {
  for (let i = 1; i <= n; i++) {
    wf.registerWorker({ registrationNo: `ALV-${String(i).padStart(4, "0")}`, name: `Docker ${i} Sousa`, skills: i % 2 ? ["lashing"] : ["checker"] });
  }
}

test("workers are listed by cursor in id order", () => {
  const { wf } = setup({ paging: { defaultLimit: 3 } });
  seed(wf, 7);
  const first = wf.listWorkers();
  assert.deepEqual(first.items.map((w) => w.id), ["WRK-000001", "WRK-000002", "WRK-000003"]);
  const second = wf.listWorkers({ cursor: first.nextCursor });
  assert.equal(second.items[0].id, "WRK-000004");
  const last = wf.listWorkers({ cursor: "WRK-000006" });
  assert.deepEqual(last.items.map((w) => w.id), ["WRK-000007"]);
  assert.equal(last.nextCursor, null);
});

test("filters apply before the page is cut and the limit is capped", () => {
  const { wf } = setup({ paging: { maxLimit: 2 } });
  seed(wf, 6);
  const page = wf.listWorkers({ skill: "lashing", limit: 10 });
  assert.deepEqual(page.items.map((w) => w.registrationNo), ["ALV-0001", "ALV-0003"]);
  assert.equal(page.nextCursor, "WRK-000003");
  assert.equal(wf.listWorkers({ nameContains: "docker 6" }).items.length, 1);
  assert.throws(() => wf.listWorkers({ state: "retired" }), /state/);
});

test("inactive workers are listed only when asked for", async () => {
  const { wf } = setup();
  seed(wf, 3);
  await wf.deactivateWorker("WRK-000002");
  assert.equal(wf.listWorkers().items.length, 2);
  assert.deepEqual(wf.listWorkers({ state: "inactive" }).items.map((w) => w.id), ["WRK-000002"]);
  assert.equal(wf.listWorkers({ state: "all" }).items.length, 3);
});
