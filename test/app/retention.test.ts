/**
 * The retention sweep runs in the app itself: started with a data dir holding a job that ended
 * 40 days ago (and its artifacts), the app deletes both at start and logs the count.
 */
import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { expect, it } from "vitest";
import { SqliteQueue } from "../../src/store/sqlite/job-queue.js";
import { tempDir } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { newJob } from "../queue/helpers.js";
import { startStack } from "./harness.js";

useNock();

it("deletes what is older than CREWBOT_RETENTION_DAYS when it starts, and says how much", async () => {
  const dataDir = await tempDir("crewbot-data-");
  const then = Date.now() - 40 * 86_400_000;
  const queue = new SqliteQueue({ dataDir, now: () => then });
  const { job } = await queue.enqueue(newJob());
  await queue.finish(job.id, "succeeded", "✅ Done");
  await queue.close();
  await mkdir(path.join(dataDir, "jobs", job.id, "artifacts"), { recursive: true });
  await writeFile(path.join(dataDir, "jobs", job.id, "artifacts", "bash-1.txt"), "output");

  const lines: string[] = [];
  const sink = new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) });
  const stack = await startStack([], { dataDir, runner: false, log: pino({ level: "info" }, sink) });
  try {
    for (let i = 0; i < 100 && !lines.some((l) => l.includes("retention (30 days)")); i++) await new Promise((r) => setTimeout(r, 50));
    const line = lines.find((l) => l.includes("retention (30 days)"));
    expect(line).toContain("deleted 1 ended jobs");
    expect(await stack.crewbot.queue.get(job.id)).toBeUndefined();
    expect(await readdir(path.join(dataDir, "jobs"))).toEqual([]);
  } finally {
    await stack.stop();
  }
});
