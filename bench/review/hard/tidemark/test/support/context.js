// The context every module test builds: a clock at a fixed time, a scheduler the test ticks, a
// log that keeps its lines. (node --test also loads this file; it holds no tests.)

import { fixedClock } from "../../src/core/clock.js";
import { loadConfig } from "../../src/core/config.js";
import { createContext } from "../../src/core/context.js";
import { collectingLog } from "../../src/core/log.js";
import { manualScheduler } from "../../src/core/scheduler.js";

export const T0 = Date.parse("2026-03-02T00:00:00Z"); // a Monday

export function testContext(overrides = {}) {
  const clock = fixedClock(T0);
  return createContext({ config: loadConfig(overrides), clock, scheduler: manualScheduler(clock), log: collectingLog() });
}
