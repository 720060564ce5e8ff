import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTranscripts, transcriptDays } from "../../src/transcripts/index.js";
import { RedisTranscriptStore } from "../../src/store/redis/transcripts.js";
import { SqliteTranscriptStore } from "../../src/store/sqlite/transcripts.js";
import type { TranscriptEntry, TranscriptStore } from "../../src/transcripts/types.js";
import { freePort } from "../helpers/app-stand-ins.js";
import { tempDir } from "../helpers/git-repo.js";

const DAY = 86_400_000;
const log = (at: number, message: string): TranscriptEntry => ({ type: "log", level: "info", message, at });

function behavesLikeAStore(make: () => Promise<TranscriptStore>) {
  it("appends and reads a job's entries in order, from a cursor", async () => {
    const store = await make();
    await store.append("job-a", [log(1, "one"), log(2, "two")]);
    await store.append("job-b", [log(3, "other job")]);
    await store.append("job-a", [log(4, "three")]);
    const all = await store.read("job-a");
    expect(all.map((e) => (e as { message: string }).message)).toEqual(["one", "two", "three"]);
    expect(all.map((e) => e.seq)).toEqual([...all.map((e) => e.seq)].sort((a, b) => a - b));
    const later = await store.read("job-a", all[1]!.seq);
    expect(later.map((e) => (e as { message: string }).message)).toEqual(["three"]);
    expect(await store.read("job-a", all[2]!.seq)).toEqual([]);
    expect(await store.read("nobody")).toEqual([]);
    await store.close();
  });
}

describe("SqliteTranscriptStore", () => {
  behavesLikeAStore(async () => new SqliteTranscriptStore({ dataDir: await tempDir("crewbot-ts-") }));

  it("lives in its own WAL file and prunes whole transcripts whose last entry is old", async () => {
    const dataDir = await tempDir("crewbot-ts-");
    const store = new SqliteTranscriptStore({ dataDir });
    const now = Date.now();
    await store.append("old", [log(now - 40 * DAY, "a"), log(now - 31 * DAY, "b")]);
    await store.append("recent", [log(now - 40 * DAY, "started long ago"), log(now - DAY, "but still going")]);
    expect(existsSync(path.join(dataDir, "transcripts.db"))).toBe(true);
    expect(existsSync(path.join(dataDir, "transcripts.db-wal"))).toBe(true);
    expect(await store.prune(now - 30 * DAY)).toEqual(["old"]);
    expect(await store.read("old")).toEqual([]);
    expect(await store.read("recent")).toHaveLength(2);
    await store.close();
  });

  it("expires after CREWBOT_TRANSCRIPT_DAYS, removing the job's artifacts too", async () => {
    expect(transcriptDays({})).toBe(30);
    expect(transcriptDays({ CREWBOT_TRANSCRIPT_DAYS: "7" })).toBe(7);
    expect(transcriptDays({ CREWBOT_TRANSCRIPT_DAYS: "nonsense" })).toBe(30);
    const dataDir = await tempDir("crewbot-ts-");
    const transcripts = openTranscripts({ env: { CREWBOT_TRANSCRIPT_DAYS: "2" }, dataDir, secrets: [], store: new SqliteTranscriptStore({ dataDir }) });
    const now = Date.now();
    const artifacts = path.join(dataDir, "jobs", "job-old", "artifacts");
    await mkdir(artifacts, { recursive: true });
    await writeFile(path.join(artifacts, "bash-1.log"), "output");
    await transcripts.store.append("job-old", [log(now - 3 * DAY, "old")]);
    await transcripts.store.append("job-new", [log(now - DAY, "new")]);
    expect(await transcripts.prune(now)).toBe(1);
    expect(existsSync(artifacts)).toBe(false);
    expect(await transcripts.store.read("job-new")).toHaveLength(1);
    await transcripts.close();
  });
});

const REDIS = "/usr/bin/redis-server";
describe.skipIf(!existsSync(REDIS))("RedisTranscriptStore (a real redis-server)", () => {
  let server: ChildProcess | undefined;
  let url = "";
  beforeAll(async () => {
    const port = await freePort();
    const dir = await tempDir("crewbot-redis-");
    server = spawn(REDIS, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], { stdio: "ignore" });
    url = `redis://127.0.0.1:${port}`;
    for (let i = 0; i < 200; i++) {
      const up = await new Promise<boolean>((resolve) => {
        const socket = connect(port, "127.0.0.1", () => (socket.end(), resolve(true)));
        socket.on("error", () => resolve(false));
      });
      if (up) break;
      await new Promise((r) => setTimeout(r, 25));
    }
  });
  afterAll(() => {
    server?.kill();
  });

  behavesLikeAStore(async () => new RedisTranscriptStore(new Redis(url), { days: 1, prefix: `t${Math.random()}:` }));

  it("keeps a list per job with a TTL of the configured days", async () => {
    const redis = new Redis(url);
    const store = new RedisTranscriptStore(redis, { days: 2, prefix: "ttl:", ownsConnection: false });
    await store.append("job-x", [log(1, "a")]);
    const ttl = await redis.ttl("ttl:job-x");
    expect(ttl).toBeGreaterThan(2 * 86_400 - 10);
    expect(ttl).toBeLessThanOrEqual(2 * 86_400);
    expect(await redis.type("ttl:job-x")).toBe("list");
    // Another process reads the same entries.
    const other = new RedisTranscriptStore(new Redis(url), { days: 2, prefix: "ttl:" });
    expect(await other.read("job-x")).toEqual([{ ...log(1, "a"), seq: 1 }]);
    await other.close();
    await redis.quit();
  });
});
