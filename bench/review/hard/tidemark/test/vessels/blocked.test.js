import assert from "node:assert/strict";
import { test } from "node:test";
import { parseBlockedLine } from "../../src/vessels/blocked/blocked-import.js";
import { DAY, HOUR, IMO, T0, callInput, setup, vesselInput } from "./fixtures.js";

test("a detention blocks calls whose stay touches it, not those after it", async () => {
  const { vessels } = setup();
  const v = await vessels.registerVessel(vesselInput());
  vessels.blockVessel({ imo: IMO.trader, kind: "detention", reference: "PSC-2026-113", start: T0, end: T0 + 2 * DAY + HOUR });
  await assert.rejects(vessels.declareCall(callInput(v.id)), /under detention \(PSC-2026-113\)/);
  const later = await vessels.declareCall(callInput(v.id, { eta: T0 + 2 * DAY + HOUR }));
  assert.equal(later.state, "expected");
  assert.equal(vessels.isBlocked(IMO.trader, T0 + 2 * DAY), true);
  assert.equal(vessels.isBlocked(IMO.trader, T0 + 2 * DAY + HOUR), false);
});

test("a sanction runs until it is lifted", async () => {
  const { ctx, vessels } = setup();
  const entry = vessels.blockVessel({ imo: IMO.tanker, kind: "sanction", reference: "EU-833/2014", start: T0 });
  assert.equal(vessels.isBlocked(IMO.tanker, T0 + 400 * DAY), true);
  ctx.clock.advance(DAY);
  const lifted = vessels.liftBlock(entry.id);
  assert.equal(lifted.end, T0 + DAY);
  assert.equal(vessels.isBlocked(IMO.tanker, T0 + DAY), false);
  assert.equal(vessels.isBlocked(IMO.tanker, T0 + DAY - 1), true);
});

test("the sanctions list imports once per reference", () => {
  const { vessels } = setup();
  const text = [`SAN;${IMO.tanker};EU-833/2014;2026-02-24`, `SAN;${IMO.bulker};OFAC-77;2026-03-01`, "XXX;1;2;3", `SAN;${IMO.tug};;2026-01-01`].join("\n");
  const first = vessels.importBlockedList(text);
  assert.equal(first.added.length, 2);
  assert.deepEqual(first.errors.map((e) => e.line), [3, 4]);
  assert.equal(vessels.importBlockedList(text).skipped, 2);
  assert.equal(vessels.isBlocked(IMO.bulker, Date.parse("2026-03-01T00:00:00Z")), true);
  assert.equal(vessels.isBlocked(IMO.bulker, Date.parse("2026-02-28T23:59:59Z")), false);
});

test("list lines are checked", () => {
  assert.throws(() => parseBlockedLine(`SAN;${IMO.tanker};EU-1;24/02/2026`), /YYYY-MM-DD/);
  assert.throws(() => parseBlockedLine("SAN;9074720;EU-1;2026-02-24"), /check digit/);
});
