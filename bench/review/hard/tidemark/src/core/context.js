// What every module's factory gets: one object built here, so a test builds the same one.

import { systemClock } from "./clock.js";
import { loadConfig } from "./config.js";
import { createEvents } from "./events.js";
import { createLocks } from "./lock.js";
import { consoleLog } from "./log.js";
import { realScheduler } from "./scheduler.js";

export function createContext({ config, clock, scheduler, log } = {}) {
  const logger = log ?? consoleLog;
  return {
    config: config ?? loadConfig(),
    clock: clock ?? systemClock,
    scheduler: scheduler ?? realScheduler(),
    log: logger,
    events: createEvents(logger),
    locks: createLocks(),
  };
}
