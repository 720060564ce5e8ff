// Timers through one scheduler, so tests can run them by hand. Every handle must be cancelled by
// whoever made it: a module with start() has a stop() that cancels what start() scheduled.

export function realScheduler() {
  return {
    every(ms, fn) {
      const timer = setInterval(fn, ms);
      return { cancel: () => clearInterval(timer) };
    },
    after(ms, fn) {
      const timer = setTimeout(fn, ms);
      return { cancel: () => clearTimeout(timer) };
    },
  };
}

/** A scheduler tests drive: tick(ms) runs what falls due; pending() counts live handles. */
export function manualScheduler(clock) {
  const jobs = new Set();
  const add = (job) => {
    jobs.add(job);
    return { cancel: () => jobs.delete(job) };
  };
  return {
    every: (ms, fn) => add({ at: clock.now() + ms, every: ms, fn }),
    after: (ms, fn) => add({ at: clock.now() + ms, every: 0, fn }),
    tick(ms) {
      const until = clock.now() + ms;
      for (;;) {
        const due = [...jobs].filter((j) => j.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        clock.set(due.at);
        if (due.every) due.at += due.every;
        else jobs.delete(due);
        due.fn();
      }
      clock.set(until);
    },
    pending: () => jobs.size,
  };
}
