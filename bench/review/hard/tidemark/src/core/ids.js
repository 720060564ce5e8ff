// Record ids are a prefix and a zero-padded sequence ("VSL-000042"), so string order is creation order.

const WIDTH = 6;

export function idSequence(prefix) {
  let next = 1;
  return {
    next: () => `${prefix}-${String(next++).padStart(WIDTH, "0")}`,
    /** Continues after ids loaded from elsewhere. */
    seen: (id) => {
      const n = Number(id.slice(prefix.length + 1));
      if (Number.isInteger(n) && n >= next) next = n + 1;
    },
  };
}

export const prefixOf = (id) => id.slice(0, id.indexOf("-"));
