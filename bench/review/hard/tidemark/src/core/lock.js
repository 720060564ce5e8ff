// Keyed async locks. They are not reentrant: a function holding "berth:B1" that asks for
// "berth:B1" again waits for itself forever. Take every key a change needs in one withLocks call;
// it sorts the keys, so two changes never take the same pair in opposite orders.

export function createLocks() {
  const tails = new Map();

  async function acquire(key) {
    const previous = tails.get(key) ?? Promise.resolve();
    let release;
    const mine = new Promise((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    tails.set(key, tail);
    await previous;
    return () => {
      release();
      if (tails.get(key) === tail) tails.delete(key);
    };
  }

  async function withLocks(keys, fn) {
    const ordered = [...new Set(keys)].sort();
    const releases = [];
    try {
      for (const key of ordered) releases.push(await acquire(key));
      return await fn();
    } finally {
      for (const release of releases.reverse()) release();
    }
  }

  return {
    withLocks,
    withLock: (key, fn) => withLocks([key], fn),
    isLocked: (key) => tails.has(key),
  };
}
