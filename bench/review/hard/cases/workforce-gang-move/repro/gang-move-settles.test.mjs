import assert from "node:assert/strict";
import { test } from "node:test";
import { DAY, HOUR } from "../src/core/time.js";
import { createWorkforce } from "../src/workforce/index.js";
import { T0, testContext } from "../test/support/context.js";

const at = (day, hour) => T0 + day * DAY + hour * HOUR;

test("assigning a gang that is already rostered in the span settles and frees its locks", async () => {
  const ctx = testContext();
  const ops = new Map();
  const add = (id, start, end) => ops.set(id, { id, callId: "CALL-1", vesselName: "MSC ALVA", quay: "Q1", berthId: "B1-3", start, end });
  const wf = createWorkforce(ctx, { operations: { findOperation: (id) => ops.get(id) ?? null } });
  const ids = [];
  for (let i = 0; i < ctx.config.workforce.gangSize; i++) {
    const skills = i === 0 ? ["foreman", "lashing"] : ["lashing"];
    const w = wf.registerWorker({ registrationNo: `ALV-70${i}0`, name: `Docker ${i} Silva`, skills });
    for (const skill of skills) wf.addCertificate({ workerId: w.id, skill, number: `CT-7${i}${skills.indexOf(skill)}0`, validFrom: T0 - DAY, validUntil: T0 + 30 * DAY });
    ids.push(w.id);
  }
  const gang = wf.formGang({ name: "Gang Sul", foremanId: ids[0], memberIds: ids });
  add("OP-1", at(1, 6), at(1, 14));
  add("OP-2", at(1, 8), at(1, 16));
  await wf.assignGang({ gangId: gang.id, operationId: "OP-1", skill: "lashing" });

  let timer;
  const hung = new Promise((resolve) => {
    timer = setTimeout(() => resolve("hung"), 500);
  });
  const outcome = await Promise.race([
    wf.assignGang({ gangId: gang.id, operationId: "OP-2", skill: "lashing", replace: true }).then(
      () => "settled",
      () => "settled",
    ),
    hung,
  ]);
  clearTimeout(timer);
  assert.equal(outcome, "settled");
  assert.ok(ids.every((id) => !ctx.locks.isLocked(`worker:${id}`)));
});
