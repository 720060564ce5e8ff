import assert from "node:assert/strict";
import { test } from "node:test";
import { DAY, HOUR } from "../src/core/time.js";
import { createWorkforce } from "../src/workforce/index.js";
import { EVENTS } from "../src/workforce/events.js";
import { T0, testContext } from "../test/support/context.js";

test("after stop() the module leaves no timer and no event subscription behind", async () => {
  const ctx = testContext();
  const ops = new Map([["OP-1", { id: "OP-1", callId: "CALL-1", vesselName: "MSC ALVA", quay: "Q1", berthId: "B1-3", start: T0 + DAY + 6 * HOUR, end: T0 + DAY + 14 * HOUR }]]);
  const wf = createWorkforce(ctx, { operations: { findOperation: (id) => ops.get(id) ?? null } });
  const w = wf.registerWorker({ registrationNo: "ALV-0777", name: "Sara Neves", skills: ["lashing"] });
  wf.addCertificate({ workerId: w.id, skill: "lashing", number: "LA-0777", validFrom: T0 - DAY, validUntil: T0 + 30 * DAY });
  const shift = await wf.assignWorker({ workerId: w.id, operationId: "OP-1", skill: "lashing" });
  const before = Object.values(EVENTS).map((type) => ctx.events.count(type));

  wf.start();
  wf.stop();

  assert.equal(ctx.scheduler.pending(), 0);
  assert.deepEqual(Object.values(EVENTS).map((type) => ctx.events.count(type)), before);
  assert.deepEqual(ctx.log.lines.filter((l) => l.level === "error"), []);

  const published = wf.publishRoster(T0 + DAY);
  await wf.releaseShift(shift.id);
  assert.equal(wf.latestPublication(T0 + DAY).id, published.id);
});
