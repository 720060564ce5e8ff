import path from "node:path";
import Database from "better-sqlite3";
import { Redis } from "ioredis";
import { afterAll } from "vitest";
import { DB_FILE } from "../../src/store/sqlite/database.js";
import { RedisReviewStore } from "../../src/store/redis/review-store.js";
import { SqliteReviewStore } from "../../src/store/sqlite/review-store.js";
import { redisPrefixFor, tempDataDir } from "../queue/helpers.js";
import { startRedis } from "../queue/redis-server.js";
import { reviewStoreContract } from "./review-store-contract.js";

const server = await startRedis();
afterAll(() => server.stop());

reviewStoreContract("SqliteReviewStore", {
  place: tempDataDir,
  open: (dataDir, now) => new SqliteReviewStore(now ? { dataDir, now } : { dataDir }),
  // A row as schema 4 wrote it: no findings column of its own (the migration's default, or JSON written by hand).
  writeOld: async (dataDir, key, number, old) => {
    const db = new Database(path.join(dataDir, DB_FILE));
    db.prepare("INSERT INTO review_state (repo_key, number, head_sha, fingerprints_json, reviewed_at) VALUES (?, ?, ?, ?, 1)").run(key, number, old.headSha, JSON.stringify(old.fingerprints));
    if (old.findingsJson !== undefined) db.prepare("UPDATE review_state SET findings_json = ? WHERE repo_key = ? AND number = ?").run(old.findingsJson, key, number);
    db.close();
  },
});

reviewStoreContract("RedisReviewStore", {
  place: tempDataDir,
  open: (dir, now) => new RedisReviewStore({ url: server.url, prefix: redisPrefixFor(dir), ...(now ? { now } : {}) }),
  // A hash as the version before wrote it: no `findings` field.
  writeOld: async (dir, key, number, old) => {
    const redis = new Redis(server.url);
    const fields = { headSha: old.headSha, fingerprints: JSON.stringify(old.fingerprints), reviewedAt: "1", version: "1" };
    await redis.hset(`${redisPrefixFor(dir)}:review:${key}#${number}`, old.findingsJson === undefined ? fields : { ...fields, findings: old.findingsJson });
    await redis.quit();
  },
});
