/**
 * A separate process for the cross-process claim test: says it is ready, waits for a start file so all
 * workers begin together, then claims and finishes jobs until none is left, printing the ids it claimed.
 */
import { existsSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { SqliteQueue } from "../../src/store/sqlite/job-queue.js";

const [dataDir, workerId, goFile] = process.argv.slice(2) as [string, string, string];
const queue = new SqliteQueue({ dataDir, busyTimeoutMs: 20_000 });
writeFileSync(`${goFile}.${workerId}.ready`, "");
while (!existsSync(goFile)) await sleep(5);
const claimed: string[] = [];
const wide = { perInstallation: 10_000, global: 10_000, leaseMs: 60_000 };
for (;;) {
  const job = await queue.claim(workerId, wide);
  if (!job) break;
  claimed.push(job.id);
  await queue.finish(job.id, "succeeded", "✅ Done", { workerId, attempt: job.attempts });
}
await queue.close();
process.stdout.write(JSON.stringify(claimed));
