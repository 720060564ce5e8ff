/**
 * The ceiling a test of a hostile input's reading puts on its wall time. These inputs are sized so a
 * linear reading takes milliseconds and a quadratic one minutes: ten seconds tells the two apart on
 * any machine, however loaded (a full suite on two cores), where one second did not. Figures belong
 * to bench/ (`npm run fuzz`), not to the tests.
 */
export const NOT_QUADRATIC_MS = 10_000;

/** Runs `work` and fails when it took longer than a linear reading can (NOT_QUADRATIC_MS). */
export function inLinearTime<T>(work: () => T): T {
  const started = performance.now();
  const result = work();
  const took = performance.now() - started;
  if (took >= NOT_QUADRATIC_MS) throw new Error(`took ${Math.round(took)} ms: quadratic on this input`);
  return result;
}

/** inLinearTime for work that waits. */
export async function inLinearTimeAsync<T>(work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  const took = performance.now() - started;
  if (took >= NOT_QUADRATIC_MS) throw new Error(`took ${Math.round(took)} ms: quadratic on this input`);
  return result;
}
