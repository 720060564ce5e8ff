// Shared set-up for the workforce tests: a test context, a stub operations port, and helpers
// that register certified workers and form gangs. (node --test loads this file too; no tests.)

import { DAY, HOUR, MINUTE } from "../../src/core/time.js";
import { createWorkforce } from "../../src/workforce/index.js";
import { T0, testContext } from "../support/context.js";

export { T0 };

/** T0 (Monday 2 March 2026, 00:00 UTC) plus days, hours and minutes. */
export const at = (day, hour = 0, minute = 0) => T0 + day * DAY + hour * HOUR + minute * MINUTE;

export function operationsPort() {
  const byId = new Map();
  return {
    findOperation: (id) => byId.get(id) ?? null,
    add(op) {
      const full = { callId: "CALL-000001", vesselName: "MSC ALVA", quay: "Q1", berthId: "B1-3", ...op };
      byId.set(full.id, full);
      return full;
    },
    remove: (id) => byId.delete(id),
  };
}

export function setup(overrides) {
  const ctx = testContext(overrides);
  const operations = operationsPort();
  const wf = createWorkforce(ctx, { operations });
  return { ctx, wf, operations };
}

let certNo = 100;

/** Registers a worker with a certificate for each certifiable skill, valid a year either side of T0. */
export function certifiedWorker(wf, { registrationNo, name = "Nuno Reis", skills = ["lashing"], maxLiftKg } = {}) {
  const worker = wf.registerWorker({ registrationNo, name, skills, maxLiftKg: skills.includes("crane") ? maxLiftKg ?? 40_000 : undefined });
  for (const skill of worker.skills.filter((s) => s !== "checker")) {
    wf.addCertificate({ workerId: worker.id, skill, number: `CT-${certNo++}`, validFrom: T0 - 365 * DAY, validUntil: T0 + 365 * DAY });
  }
  return worker;
}

/** A foreman and gangSize - 1 lashers, formed into a gang. */
export function seedGang(wf, ctx, { prefix = 1, name = "Gang Norte" } = {}) {
  const size = ctx.config.workforce.gangSize;
  const foreman = certifiedWorker(wf, { registrationNo: `ALV-${prefix}000`, name: "Rui Costa", skills: ["foreman", "lashing"] });
  const crew = Array.from({ length: size - 1 }, (_, i) =>
    certifiedWorker(wf, { registrationNo: `ALV-${prefix}${String(i + 1).padStart(3, "0")}`, name: `Docker ${prefix}${i + 1} Silva` }),
  );
  const gang = wf.formGang({ name, foremanId: foreman.id, memberIds: [foreman.id, ...crew.map((w) => w.id)] });
  return { gang, foreman, crew };
}
