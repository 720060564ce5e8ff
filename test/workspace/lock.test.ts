import { existsSync } from "node:fs";
import { utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isLocked, withLock } from "../../src/workspace/lock.js";
import { tempDir } from "../helpers/git-repo.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("withLock", () => {
  it("runs holders of one key one at a time, with a lock file while held, and survives failures", async () => {
    const key = path.join(await tempDir(), "repo.git");
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    const task = (i: number) =>
      withLock(key, async () => {
        inside += 1;
        most = Math.max(most, inside);
        expect(existsSync(`${key}.lock`)).toBe(true);
        await sleep(10);
        order.push(i);
        inside -= 1;
        if (i === 1) throw new Error("boom");
        return i;
      });
    const results = await Promise.allSettled([task(0), task(1), task(2), task(3)]);
    expect(most).toBe(1);
    expect(order).toEqual([0, 1, 2, 3]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(existsSync(`${key}.lock`)).toBe(false);
    expect(isLocked(key)).toBe(false);
  });

  it("waits for another process's lock file and takes over a stale one", async () => {
    const key = path.join(await tempDir(), "repo.git");
    await writeFile(`${key}.lock`, "999999\n");
    const started = Date.now();
    const waiting = withLock(key, async () => Date.now() - started, { staleMs: 60_000 });
    await sleep(250);
    expect(isLocked(key)).toBe(true);
    // Not touched for longer than staleMs: its holder died.
    const old = new Date(Date.now() - 120_000);
    await utimes(`${key}.lock`, old, old);
    expect(await waiting).toBeGreaterThanOrEqual(250);

    await writeFile(`${key}.lock`, "1\n");
    await expect(withLock(key, async () => 1, { timeoutMs: 300 })).rejects.toThrow(/timed out waiting for lock/);
  });
});
