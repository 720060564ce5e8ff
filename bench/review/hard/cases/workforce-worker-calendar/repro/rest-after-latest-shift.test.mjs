import assert from "node:assert/strict";
import { test } from "node:test";
import { DAY, HOUR } from "../src/core/time.js";
import { createWorkforce } from "../src/workforce/index.js";
import { T0, testContext } from "../test/support/context.js";

const at = (day, hour) => T0 + day * DAY + hour * HOUR;

test("the rest rule measures from the latest shift before the new one", async () => {
  const ops = new Map();
  const add = (id, start, end) => ops.set(id, { id, callId: "CALL-1", vesselName: "MSC ALVA", quay: "Q1", berthId: "B1-3", start, end });
  const wf = createWorkforce(testContext(), { operations: { findOperation: (id) => ops.get(id) ?? null } });
  const w = wf.registerWorker({ registrationNo: "ALV-0042", name: "Nuno Reis", skills: ["lashing"] });
  wf.addCertificate({ workerId: w.id, skill: "lashing", number: "LA-4242", validFrom: T0 - 30 * DAY, validUntil: T0 + 30 * DAY });
  add("OP-1", at(0, 19), at(0, 23));
  add("OP-2", at(1, 10), at(1, 14));
  add("OP-3", at(1, 18), at(1, 22)); // 4 h after OP-2 ends
  await wf.assignWorker({ workerId: w.id, operationId: "OP-1", skill: "lashing" });
  await wf.assignWorker({ workerId: w.id, operationId: "OP-2", skill: "lashing" });
  assert.deepEqual(wf.checkEligibility(w.id, "lashing", { start: at(1, 18), end: at(1, 22) }).reasons, ["short_rest"]);
  await assert.rejects(wf.assignWorker({ workerId: w.id, operationId: "OP-3", skill: "lashing" }), /short_rest/);
});
