import assert from "node:assert/strict";
import { test } from "node:test";
import { DAY, HOUR } from "../src/core/time.js";
import { createWorkforce } from "../src/workforce/index.js";
import { T0, testContext } from "../test/support/context.js";

test("every free, certified lasher is offered by the availability query", () => {
  const ctx = testContext();
  const wf = createWorkforce(ctx, { operations: { findOperation: () => null } });
  const count = 80;
  for (let i = 1; i <= count; i++) {
    const w = wf.registerWorker({ registrationNo: `ALV-${String(i).padStart(4, "0")}`, name: `Docker ${i} Sousa`, skills: ["lashing"] });
    wf.addCertificate({ workerId: w.id, skill: "lashing", number: `LA-${1000 + i}`, validFrom: T0 - DAY, validUntil: T0 + 30 * DAY });
  }
  const span = { skill: "lashing", start: T0 + 6 * HOUR, end: T0 + 14 * HOUR };
  assert.equal(wf.availableWorkers(span).length, count);
  wf.start();
  assert.equal(wf.availabilityBoard(span).length, count);
  wf.stop();
});
