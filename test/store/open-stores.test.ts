/**
 * `openStores` on a real redis-server: two deployments (two `REDIS_PREFIX`es) on one Redis use every
 * store, and then every key in Redis starts with one of their prefixes — nothing is shared, nothing
 * of one prunes the other's. Without `REDIS_URL` every store is the embedded one.
 */
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_WRITE_BUDGET } from "../../src/report/write-gate.js";
import { openStores, redisPrefix, type OpenedStores } from "../../src/store/open-stores.js";
import { LIMITS, newJob, tempDataDir } from "../queue/helpers.js";
import { startRedis } from "../queue/redis-server.js";

const server = await startRedis();
afterAll(() => server.stop());

/** Writes to every store an opening has, as the app and its workers do. */
async function useEvery(stores: OpenedStores, tag: string): Promise<void> {
  const { job } = await stores.queue.enqueue(newJob({ deliveryId: `delivery-${tag}` }));
  await stores.queue.claim(`w-${tag}`, LIMITS);
  await stores.reviews.record("octo/hello", 1, "sha", ["f"]);
  await stores.learnings.addSighting("octo/hello", { source: "rule", url: "https://github.com/octo/hello/pull/1#discussion_r1", number: 1, by: "octocat", at: Date.now(), kind: "always x", text: "always x" });
  await stores.learnings.recordUses("octo/hello", [{ id: "aaaa1111", jobId: job.id, at: Date.now(), suppressed: 1, shaped: 0 }]);
  await stores.ciFixRounds!.claim("octo/hello", 2, 2, job.id, "d".repeat(40));
  await stores.installations.put({ id: 7, account: "octo", state: "active", repositories: [], allRepositories: true, updatedAt: Date.now() });
  await stores.installations.recordStart(7, job.id, Date.now());
  await stores.installations.recordCost(7, job.id, 0.5);
  await stores.transcripts.append(job.id, [{ at: Date.now(), type: "job_end", terminal: "done", outcome: tag }]);
  await stores.jobFiles?.put(job.id, "tool-1.txt", Buffer.from(tag), "v1");
  if (!stores.shared) return;
  await stores.shared.writeBudget.take(7, { spacingMs: 0, budget: DEFAULT_WRITE_BUDGET, keep: { minute: 0, hour: 0 }, peek: false });
  const admission = stores.shared.admission({ burst: 2, perMinute: 1 });
  await admission.newDelivery(`guid-${tag}`);
  await admission.take(7, "Codertocat");
  await stores.shared.replyCounters.increment("crewbot:reply:7:eve:octo/hello#1", 60_000);
}

async function allKeys(url: string): Promise<string[]> {
  const redis = new Redis(url);
  try {
    const keys: string[] = [];
    let cursor = "0";
    do {
      const [next, batch] = await redis.scan(cursor, "COUNT", 1000);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== "0");
    return keys;
  } finally {
    redis.disconnect();
  }
}

describe("openStores with REDIS_URL", () => {
  it("puts every key of every store under its REDIS_PREFIX, and two prefixes share nothing", async () => {
    const stamp = Date.now().toString(36);
    const [a, b] = [`deploy-a-${stamp}`, `deploy-b-${stamp}`];
    const one = await openStores({ REDIS_URL: server.url, REDIS_PREFIX: a }, await tempDataDir());
    const two = await openStores({ REDIS_URL: server.url, REDIS_PREFIX: b }, await tempDataDir());
    try {
      expect([one.kind, two.kind]).toEqual(["redis", "redis"]);
      await useEvery(one, "a");
      await useEvery(two, "b");
      const keys = await allKeys(server.url); // this file's own redis-server: every key is ours
      const stray = keys.filter((k) => !k.startsWith(`${a}:`) && !k.startsWith(`${b}:`));
      expect(stray).toEqual([]);
      // Each store wrote under each prefix: the queue, reviews, learnings, rounds, ledger, transcripts.
      for (const prefix of [a, b]) {
        const mine = keys.filter((k) => k.startsWith(`${prefix}:`)).map((k) => k.slice(prefix.length + 1));
        for (const part of ["job:", "review:", "learn:", "cifix:", "installation:", "usage:", "transcript:", "writes:", "commands:", "webhook:", "jobfiles:", "reply:"]) {
          expect(mine.some((k) => k.startsWith(part)), `${prefix}: a key ${part}…`).toBe(true);
        }
      }
      // One deployment's ledger and transcripts are its own.
      expect(await two.installations.jobsSince(7, 0)).toBe(1);
      const [jobA] = await one.queue.listRecent();
      expect(await two.transcripts.read(jobA!.id)).toEqual([]);
      expect((await one.transcripts.read(jobA!.id)).map((e) => e.type === "job_end" && e.outcome)).toEqual(["a"]);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it("refuses a REDIS_PREFIX that is not a plain word, naming it", () => {
    expect(redisPrefix({})).toBe("crewbot");
    expect(redisPrefix({ REDIS_PREFIX: " team-a:crewbot " })).toBe("team-a:crewbot");
    for (const bad of ["a b", "crew*", "x[1]", "-x", "a?"]) expect(() => redisPrefix({ REDIS_PREFIX: bad })).toThrow(/^REDIS_PREFIX must be/);
  });
});

describe("openStores without REDIS_URL", () => {
  it("opens every store embedded, in the data directory", async () => {
    const stores = await openStores({}, await tempDataDir());
    try {
      expect(stores.kind).toBe("sqlite");
      await useEvery(stores, "s");
      expect(await stores.installations.jobsSince(7, 0)).toBe(1);
    } finally {
      await stores.close();
      await stores.close(); // twice is fine
    }
  });
});
