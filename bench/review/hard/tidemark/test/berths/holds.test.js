import assert from "node:assert/strict";
import { test } from "node:test";
import { MINUTE } from "../../src/core/time.js";
import { berthWorld, bookingInput } from "./fixtures.js";
import { BERTH_EVENTS } from "../../src/berths/events.js";

const settle = () => new Promise((resolve) => setImmediate(resolve));

test("a hold is tentative until its expiry and may be confirmed before", async () => {
  const { ctx, api } = berthWorld();
  const hold = await api.placeHold(bookingInput("B1-1", "VSL-000001", 10, 20, { holdMinutes: 30 }));
  assert.equal(hold.status, "tentative");
  assert.equal(hold.holdUntil, ctx.clock.now() + 30 * MINUTE);
  const row = await api.confirmBooking(hold.id);
  assert.equal(row.status, "confirmed");
  assert.equal(row.holdUntil, null);
});

test("a lapsed hold cannot be confirmed", async () => {
  const { ctx, api } = berthWorld();
  const hold = await api.placeHold(bookingInput("B1-1", "VSL-000001", 10, 20, { holdMinutes: 30 }));
  ctx.clock.advance(30 * MINUTE);
  await assert.rejects(api.confirmBooking(hold.id), /has lapsed/);
});

test("holds last at most the standing order's four hours", async () => {
  const { api } = berthWorld();
  await assert.rejects(api.placeHold(bookingInput("B1-1", "VSL-000001", 10, 20, { holdMinutes: 241 })), /between 1 and 240/);
});

test("the releaser frees lapsed holds on its tick and stops cleanly", async () => {
  const { ctx, parts, api } = berthWorld();
  const released = [];
  ctx.events.subscribe(BERTH_EVENTS.holdReleased, (p) => released.push(p.bookingId));
  const short = await api.placeHold(bookingInput("B1-1", "VSL-000001", 10, 20, { holdMinutes: 5 }));
  const long = await api.placeHold(bookingInput("B1-2", "VSL-000002", 10, 20, { holdMinutes: 60 }));
  ctx.clock.advance(5 * MINUTE);
  api.start();
  ctx.scheduler.tick(ctx.config.scheduler.tickMs);
  await settle();
  assert.deepEqual(released, [short.id]);
  assert.equal(api.getBooking(short.id).cancelReason, "hold released");
  assert.equal(api.getBooking(long.id).status, "tentative");
  api.stop();
  assert.equal(ctx.scheduler.pending(), 0);
  assert.equal(parts.holdReleaser.running, false);
});

test("a hold confirmed meanwhile is not released", async () => {
  const { ctx, parts, api } = berthWorld();
  const hold = await api.placeHold(bookingInput("B1-1", "VSL-000001", 10, 20, { holdMinutes: 5 }));
  await api.confirmBooking(hold.id);
  ctx.clock.advance(10 * MINUTE);
  assert.equal(await parts.holds.releaseHold(hold.id), null);
  assert.deepEqual(await parts.holdReleaser.runOnce(), []);
});

test("a released hold frees its slot", async () => {
  const { api } = berthWorld();
  const hold = await api.placeHold(bookingInput("B1-1", "VSL-000001", 10, 20));
  await assert.rejects(api.createBooking(bookingInput("B1-1", "VSL-000002", 12, 14)), /booked by/);
  await api.releaseHold(hold.id);
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 12, 14));
});
