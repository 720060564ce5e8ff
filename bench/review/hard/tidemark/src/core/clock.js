// Modules take their clock from their dependencies so tests control time. Never call Date.now().

export const systemClock = Object.freeze({ now: () => Date.now() });

/** A clock tests move by hand. */
export function fixedClock(start) {
  let now = start;
  return {
    now: () => now,
    set: (t) => {
      now = t;
    },
    advance: (ms) => {
      now += ms;
      return now;
    },
  };
}
