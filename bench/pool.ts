/** Runs `jobs` at most `size` at a time, in order of start; `onDone` hears each result as it comes. */
export async function pool<T>(jobs: Array<() => Promise<T>>, size: number, onDone: (t: T) => void): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]!();
      onDone(results[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, jobs.length) }, worker));
  return results;
}
