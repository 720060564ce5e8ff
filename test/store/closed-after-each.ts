import { afterEach } from "vitest";

/**
 * A store contract's `open`: the factory's store, closed after each test (every store a test
 * opened, however many), so no test sees another's connection or file handle.
 */
export function closedAfterEach<T extends { close(): Promise<void> }>(open: (place: string, now?: () => number) => T): (place: string, now?: () => number) => T {
  const opened: T[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });
  return (place, now) => {
    const store = open(place, now);
    opened.push(store);
    return store;
  };
}
