import assert from "node:assert/strict";
import { test } from "node:test";
import { createNotices } from "../../src/billing/dunning/notices.js";
import { createReminderWatch } from "../../src/billing/dunning/paidWatch.js";
import { createDunningPolicy } from "../../src/billing/dunning/policy.js";
import { createDunningScheduler, nextRunAt } from "../../src/billing/dunning/scheduler.js";
import { DAY, HOUR } from "../../src/core/time.js";
import { T0, testContext } from "../support/context.js";
import { billingWorld, postOpen, raiseWharfage } from "./fixtures.js";

const invoice = (over = {}) => ({ id: "INV-000001", number: "PTALV-2026-000001", dueAt: T0, remindedAt: null, reminderLevel: 0, grossMinor: 18_450, paidMinor: 0, creditedMinor: 0, ...over });

test("the first reminder waits out the grace, later ones a grace after the last", () => {
  const policy = createDunningPolicy({ graceDays: 7 });
  assert.equal(policy.nextReminderAt(invoice()), T0 + 7 * DAY);
  assert.equal(policy.isDue(invoice(), T0 + 7 * DAY - 1), false);
  assert.equal(policy.isDue(invoice(), T0 + 7 * DAY), true);
  const reminded = invoice({ reminderLevel: 1, remindedAt: T0 + 8 * DAY });
  assert.equal(policy.nextReminderAt(reminded), T0 + 15 * DAY);
  assert.equal(policy.isDue(invoice({ reminderLevel: 3, remindedAt: T0 }), T0 + 90 * DAY), false);
});

test("days overdue are whole days after the due date", () => {
  const policy = createDunningPolicy({ graceDays: 7 });
  assert.equal(policy.daysOverdue(invoice(), T0), 0);
  assert.equal(policy.daysOverdue(invoice(), T0 + DAY - 1), 0);
  assert.equal(policy.daysOverdue(invoice(), T0 + 3 * DAY), 3);
  assert.throws(() => createDunningPolicy({ graceDays: -1 }), /graceDays/);
});

test("the run waits for 06:00 UTC, then goes daily until stopped", () => {
  const ctx = testContext();
  let runs = 0;
  const scheduler = createDunningScheduler(ctx, { runOnce: () => runs++ });
  assert.equal(nextRunAt(T0), T0 + 6 * HOUR);
  assert.equal(nextRunAt(T0 + 6 * HOUR), T0 + DAY + 6 * HOUR);
  scheduler.start();
  scheduler.start();
  ctx.scheduler.tick(6 * HOUR - 1);
  assert.equal(runs, 0);
  ctx.scheduler.tick(1);
  assert.equal(runs, 1);
  ctx.scheduler.tick(2 * DAY);
  assert.equal(runs, 3);
  scheduler.stop();
  assert.equal(ctx.scheduler.pending(), 0);
  ctx.scheduler.tick(5 * DAY);
  assert.equal(runs, 3);
});

test("stopping before the first run cancels it", () => {
  const ctx = testContext();
  const scheduler = createDunningScheduler(ctx, { runOnce: () => assert.fail("ran") });
  scheduler.start();
  scheduler.stop();
  assert.equal(ctx.scheduler.pending(), 0);
  assert.equal(scheduler.running(), false);
});

test("a failing run is logged and the next day runs again", () => {
  const ctx = testContext();
  let calls = 0;
  const scheduler = createDunningScheduler(ctx, {
    runOnce: () => {
      calls++;
      throw new Error("store offline");
    },
  });
  scheduler.start();
  ctx.scheduler.tick(DAY + 6 * HOUR);
  assert.equal(calls, 2);
  assert.equal(ctx.log.lines.filter((l) => l.level === "error").length, 2);
  scheduler.stop();
});

test("a notice lists what each invoice still owes and the total", () => {
  const ctx = testContext();
  const notices = createNotices(ctx);
  const account = { id: "ACC-000001", code: "LUSAG", name: "Lusitania Shipping Agency", email: "accounts@lusag.example" };
  const notice = notices.noticeFor(account, [invoice({ paidMinor: 450 }), invoice({ number: "PTALV-2026-000002", dueAt: T0 + DAY })], 3, T0 + 20 * DAY);
  assert.equal(notice.totalMinor, 18_000 + 18_450);
  assert.equal(notice.subject, "final notice: 364,50 EUR overdue");
  assert.match(notice.text, /PTALV-2026-000001 {2}due 2026-03-02 {2}180,00 EUR/);
  assert.match(notice.text, /referred for collection/);
  assert.equal(notice.to, "accounts@lusag.example");
});

test("a paid or credited invoice leaves the watch list", async () => {
  const { billing, account, ctx } = billingWorld();
  const watch = createReminderWatch(ctx, billing.internals.stores);
  raiseWharfage(billing, account.id, [5_000_000]);
  const first = await postOpen(billing, account.id);
  raiseWharfage(billing, account.id, [10_000_000]);
  const second = await postOpen(billing, account.id);
  watch.add([first.id, second.id]);
  await billing.takePayment({ accountId: account.id, amountMinor: 20_000, reference: "SWIFT-7" });
  assert.deepEqual(watch.list(), [second.id]);
  await billing.issueCreditNote(second.id, { lines: [0], reason: "value corrected" });
  assert.deepEqual(watch.list(), []);
  watch.stop();
});
