// A small time-bounded cache. Whoever caches a record invalidates it on the event that changes it.

export function createCache({ clock, ttlMs, maxEntries }) {
  const entries = new Map();
  return {
    get(key) {
      const hit = entries.get(key);
      if (!hit) return undefined;
      if (clock.now() >= hit.expires) {
        entries.delete(key);
        return undefined;
      }
      return hit.value;
    },
    set(key, value) {
      if (entries.size >= maxEntries && !entries.has(key)) entries.delete(entries.keys().next().value);
      entries.set(key, { value, expires: clock.now() + ttlMs });
      return value;
    },
    delete: (key) => entries.delete(key),
    clear: () => entries.clear(),
    get size() {
      return entries.size;
    },
  };
}
