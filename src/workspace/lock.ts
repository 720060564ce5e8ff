import { open, rm, stat, utimes } from "node:fs/promises";

/**
 * Mutual exclusion per path: a promise chain inside this process plus an O_EXCL lock file, so
 * worker processes sharing one data dir on one host do not run two git commands that update
 * the same refs at once (git's own ref locks would make the second one fail).
 */
const chains = new Map<string, Promise<unknown>>();

export interface LockOptions {
  /** Give up waiting for another process's lock after this long. */
  timeoutMs?: number;
  /**
   * A lock file not touched for this long is taken over: its holder died. Holders touch it every
   * `staleMs / 4`, so a long first clone keeps its lock (pids are no proof: containers reuse them).
   */
  staleMs?: number;
}

export async function withLock<T>(key: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const previous = chains.get(key) ?? Promise.resolve();
  const result = previous.catch(() => undefined).then(() => withLockFile(`${key}.lock`, fn, options));
  const tail = result.catch(() => undefined);
  chains.set(key, tail);
  void tail.then(() => {
    if (chains.get(key) === tail) chains.delete(key);
  });
  return result;
}

/** Whether this process holds or waits for the lock of `key` (eviction skips such mirrors). */
export function isLocked(key: string): boolean {
  return chains.has(key);
}

const DEFAULT_STALE_MS = 2 * 60_000;

async function withLockFile<T>(file: string, fn: () => Promise<T>, options: LockOptions): Promise<T> {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  await acquire(file, options.timeoutMs ?? 30 * 60_000, staleMs);
  const heartbeat = setInterval(() => {
    const now = new Date();
    utimes(file, now, now).catch(() => undefined);
  }, staleMs / 4);
  heartbeat.unref();
  try {
    return await fn();
  } finally {
    clearInterval(heartbeat);
    await rm(file, { force: true });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function acquire(file: string, timeoutMs: number, staleMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const handle = await open(file, "wx");
      await handle.writeFile(`${process.pid}\n`); // for a human looking at it
      await handle.close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const touched = await stat(file).then((info) => info.mtimeMs, () => undefined);
    if (touched !== undefined && Date.now() - touched > staleMs) {
      await rm(file, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for lock ${file}`);
    await sleep(100);
  }
}
