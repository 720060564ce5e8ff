import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Queues, newJob, tempDataDir } from "./helpers.js";

const run = promisify(execFile);
const worker = path.join(path.dirname(fileURLToPath(import.meta.url)), "claim-worker.ts");
const queues = new Queues();
afterEach(() => queues.closeAll());

describe("SqliteQueue across processes", () => {
  it("never gives one job to two processes claiming from the same file at once", async () => {
    const dir = await tempDataDir();
    const q = queues.open(dir);
    const ids = new Set<string>();
    for (let n = 0; n < 300; n++) ids.add((await q.enqueue(newJob({ number: n, inst: 1 + (n % 5) }))).job.id);
    const go = path.join(dir, "go");
    const names = ["p1", "p2", "p3"];
    const procs = names.map((w) =>
      run(process.execPath, ["--import", "tsx", worker, dir, w, go], { cwd: process.cwd() }),
    );
    // Let every process open the file before any claims, so their claims overlap.
    const ready = names.map((w) => `${go}.${w}.ready`);
    await vi.waitFor(() => expect(ready.every((f) => existsSync(f))).toBe(true), { timeout: 30_000, interval: 20 });
    await writeFile(go, "");
    const claims = (await Promise.all(procs)).map((p) => JSON.parse(p.stdout) as string[]);
    const all = claims.flat();
    expect(all).toHaveLength(ids.size);
    expect(new Set(all)).toEqual(ids);
    for (const job of await q.listRecent({ limit: 1000 })) expect(job).toMatchObject({ state: "succeeded", attempts: 1 });
  }, 60_000);
});
