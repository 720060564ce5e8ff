import assert from "node:assert/strict";
import { test } from "node:test";
import { DAY, HOUR } from "../../src/core/time.js";
import { EVENTS } from "../../src/workforce/events.js";
import { at, certifiedWorker, seedGang, setup } from "./fixtures.js";

async function rostered() {
  const s = setup();
  const { wf, ctx, operations } = s;
  const { gang } = seedGang(wf, ctx);
  const solo = certifiedWorker(wf, { registrationNo: "ALV-0601", name: "Sara Neves", skills: ["crane"] });
  operations.add({ id: "OP-1", start: at(1, 6), end: at(1, 14), quay: "Q2", berthId: "B2-1", vesselName: "CMA TEJO" });
  operations.add({ id: "OP-2", start: at(1, 8), end: at(1, 16) });
  await wf.assignGang({ gangId: gang.id, operationId: "OP-1", skill: "lashing" });
  await wf.assignWorker({ workerId: solo.id, operationId: "OP-2", skill: "crane" });
  return { ...s, gang, solo };
}

test("a day's roster is read quay by quay, berth by berth", async () => {
  const { wf, solo } = await rostered();
  const lines = wf.rosterOfDay(at(1, 12));
  assert.equal(lines.length, 6);
  assert.equal(lines[0].workerId, solo.id);
  assert.equal(lines[0].quay, "Q1");
  assert.deepEqual([...new Set(lines.slice(1).map((l) => l.quay))], ["Q2"]);
  assert.equal(wf.rosterOfDay(at(0)).length, 0);
});

test("a roster line names a gone operation instead of failing", async () => {
  const { wf, operations } = await rostered();
  operations.remove("OP-2");
  const line = wf.rosterOfDay(at(1)).find((l) => l.skill === "crane");
  assert.equal(line.vesselName, "(operation gone)");
});

test("publishing stores the board text and announces it", async () => {
  const { wf, ctx } = await rostered();
  const seen = [];
  ctx.events.subscribe(EVENTS.rosterPublished, (e) => seen.push(e));
  const pub = wf.publishRoster();
  assert.equal(pub.day, at(1));
  assert.match(pub.text, /^Roster 2026-03-03 - Port of Alvarim - 6 shift\(s\)/);
  assert.match(pub.text, /Q1 B1-3   08:00-16:00  MSC ALVA     crane         ALV-0601 Neves, Sara/);
  assert.deepEqual(seen, [{ publicationId: pub.id, day: at(1), shifts: 6 }]);
  assert.equal(wf.latestPublication(at(1, 9)).id, pub.id);
  assert.equal(wf.latestPublication(at(2)), null);
});

test("the roster goes out every day at 14:00 while started", async () => {
  const { wf, ctx } = await rostered();
  const days = [];
  ctx.events.subscribe(EVENTS.rosterPublished, (e) => days.push(e.day));
  wf.start();
  ctx.scheduler.tick(13 * HOUR);
  assert.deepEqual(days, []);
  ctx.scheduler.tick(2 * HOUR);
  assert.deepEqual(days, [at(1)]);
  ctx.scheduler.tick(DAY);
  assert.deepEqual(days, [at(1), at(2)]);
  wf.stop();
  ctx.scheduler.tick(3 * DAY);
  assert.equal(days.length, 2);
  assert.equal(ctx.scheduler.pending(), 0);
});
