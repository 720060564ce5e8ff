import assert from "node:assert/strict";
import { test } from "node:test";
import { berthWorld, bookingInput } from "./fixtures.js";

test("the plan of a berth is in stay order and frozen", async () => {
  const { api } = berthWorld();
  api.start();
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 20, 30));
  await api.createBooking(bookingInput("B1-1", "VSL-000002", 2, 14));
  const plan = api.planOfBerth("B1-1");
  assert.deepEqual(plan.map((b) => b.id), ["BKG-000002", "BKG-000001"]);
  assert.ok(Object.isFrozen(plan));
  api.stop();
});

test("a cached plan is dropped on the events that change it", async () => {
  const { parts, api } = berthWorld();
  api.start();
  const b = await api.createBooking(bookingInput("B1-1", "VSL-000002", 2, 14));
  assert.equal(api.planOfBerth("B1-1").length, 1);
  assert.equal(api.planOfBerth("B1-3").length, 0);
  await api.moveBooking(b.id, "B1-3");
  assert.equal(api.planOfBerth("B1-1").length, 0);
  assert.equal(api.planOfBerth("B1-3").length, 1);
  await api.cancelBooking(b.id);
  assert.equal(api.planOfBerth("B1-3").length, 0);
  assert.ok(parts.planView.cached >= 1);
  api.stop();
  assert.equal(parts.planView.cached, 0);
});

test("stop releases the subscriptions", async () => {
  const { ctx, api } = berthWorld();
  api.start();
  api.start();
  assert.equal(ctx.events.count("berths.booking.created"), 1);
  api.stop();
  assert.equal(ctx.events.count("berths.booking.created"), 0);
});
