// Comparators. Array.prototype.sort sorts in place: never sort an array a caller handed you or a
// store returned; sort a copy (toSorted).

export const byNumber = (key) => (a, b) => a[key] - b[key];
export const byString = (key) => (a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0);

/** The first comparator that tells two records apart decides. */
export const byKeys = (...comparators) => (a, b) => {
  for (const compare of comparators) {
    const d = compare(a, b);
    if (d !== 0) return d;
  }
  return 0;
};

export const descending = (compare) => (a, b) => compare(b, a);
