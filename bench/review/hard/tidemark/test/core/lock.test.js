import assert from "node:assert/strict";
import { test } from "node:test";
import { createLocks } from "../../src/core/lock.js";
import { createEvents } from "../../src/core/events.js";
import { fixedClock } from "../../src/core/clock.js";
import { manualScheduler } from "../../src/core/scheduler.js";
import { loadConfig } from "../../src/core/config.js";

test("a lock serialises its key", async () => {
  const locks = createLocks();
  const order = [];
  const slow = locks.withLock("k", async () => {
    order.push("a-in");
    await new Promise((r) => setImmediate(r));
    order.push("a-out");
  });
  const fast = locks.withLock("k", async () => order.push("b"));
  await Promise.all([slow, fast]);
  assert.deepEqual(order, ["a-in", "a-out", "b"]);
  assert.equal(locks.isLocked("k"), false);
});

test("a failing handler does not stop the others", () => {
  const lines = [];
  const events = createEvents((...l) => lines.push(l));
  const seen = [];
  events.subscribe("x", () => {
    throw new Error("boom");
  });
  const off = events.subscribe("x", (p) => seen.push(p));
  events.publish("x", 1);
  off();
  events.publish("x", 2);
  assert.deepEqual(seen, [1]);
  assert.equal(lines.length, 2);
});

test("the manual scheduler runs what falls due", () => {
  const clock = fixedClock(0);
  const s = manualScheduler(clock);
  let n = 0;
  const h = s.every(1_000, () => n++);
  s.tick(3_500);
  assert.equal(n, 3);
  h.cancel();
  assert.equal(s.pending(), 0);
});

test("config refuses unknown settings", () => {
  assert.throws(() => loadConfig({ berthing: { ukc: 1 } }), /unknown setting berthing.ukc/);
  assert.equal(loadConfig({ berthing: { ukcMinCm: 80 } }).berthing.ukcMinCm, 80);
});
