import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { monthStart } from "../../src/installations/limits.js";
import { RedisInstallations } from "../../src/store/redis/installations.js";
import { SqliteInstallations } from "../../src/store/sqlite/installations.js";
import type { InstallationRecord, InstallationStore, UsageLedger } from "../../src/installations/types.js";

type Store = InstallationStore & UsageLedger;

const dirs: string[] = [];
async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A throwaway redis-server (no persistence) in a temp dir, or the one REDIS_URL names. */
let redisUrl = process.env.REDIS_URL ?? "";
let redisProcess: ChildProcess | undefined;

beforeAll(async () => {
  if (redisUrl) return;
  const dir = await tempDir("crewbot-redis-");
  const port = await freePort();
  redisProcess = spawn("/usr/bin/redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], {
    stdio: "ignore",
  });
  redisUrl = `redis://127.0.0.1:${port}`;
  const probe = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on("error", () => undefined); // refused while the server starts: retried below
  try {
    for (let i = 0; ; i++) {
      try {
        await probe.connect();
        if ((await probe.ping()) === "PONG") break;
      } catch (error) {
        if (i > 100) throw error;
        probe.disconnect();
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  } finally {
    probe.disconnect();
  }
});

afterAll(async () => {
  if (redisProcess && redisProcess.exitCode === null) {
    const exited = new Promise((r) => redisProcess!.once("exit", r));
    redisProcess.kill("SIGTERM");
    await exited;
  }
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** Per backend, a fresh place to keep things, and how to open a connection to it (each is another process's). */
const backends: Array<[string, () => Promise<() => Store>]> = [
  ["SqliteInstallations", async () => {
    const dataDir = await tempDir("crewbot-inst-");
    return () => new SqliteInstallations({ dataDir });
  }],
  // A fresh prefix per store: tests never see each other's keys, even on a shared REDIS_URL.
  ["RedisInstallations", async () => {
    const prefix = `crewbot-test-${randomBytes(6).toString("hex")}`;
    return () => new RedisInstallations({ url: redisUrl, prefix });
  }],
];

const HOUR = 3_600_000;

const record = (o: Partial<InstallationRecord> & { id: number }): InstallationRecord => ({
  account: "Codertocat",
  state: "active",
  repositories: [],
  allRepositories: false,
  updatedAt: 1_700_000_000_000,
  ...o,
});

describe.each(backends)("%s", (_name, make) => {
  const connections = new WeakMap<Store, () => Store>();
  const open = async () => {
    const connect = await make();
    const store = connect();
    connections.set(store, connect);
    opened.push(store);
    return store;
  };
  /** Another connection to the store `store` is on. */
  const reopen = async (store: Store) => {
    const again = connections.get(store)!();
    opened.push(again);
    return again;
  };

  it("knows no installation before one is put", async () => {
    const store = await open();
    expect(await store.get(1)).toBeUndefined();
  });

  it("gives back what was put, and the latest put", async () => {
    const store = await open();
    const first = record({ id: 7, installedBy: "hubot", repositories: [{ fullName: "Codertocat/A" }, { fullName: "Codertocat/B" }] });
    await store.put(first);
    expect(await store.get(7)).toEqual(first);

    const second = record({ id: 7, account: "Renamed", installedBy: "octocat", state: "suspended", repositories: [], allRepositories: true, updatedAt: first.updatedAt + 5 });
    await store.put(second);
    expect(await store.get(7)).toEqual(second);
  });

  it("keeps repository ids, and reads a record written before ids were kept (names only) as names", async () => {
    const store = await open();
    const withIds = record({ id: 12, installedBy: "hubot", repositories: [{ fullName: "Codertocat/A", id: 101 }, { fullName: "Codertocat/B" }], removedRepositories: [{ fullName: "Codertocat/C", id: 103 }] });
    await store.put(withIds);
    expect(await store.get(12)).toEqual(withIds);
    // The stored form of older records: plain `owner/name` strings.
    await store.put({ ...record({ id: 13, installedBy: "hubot" }), repositories: ["Codertocat/Old"], removedRepositories: ["Codertocat/Gone"] } as unknown as InstallationRecord);
    expect(await store.get(13)).toEqual(record({ id: 13, installedBy: "hubot", repositories: [{ fullName: "Codertocat/Old" }], removedRepositories: [{ fullName: "Codertocat/Gone" }] }));
  });

  it("keeps who installed it when a later put has no installer", async () => {
    const store = await open();
    await store.put(record({ id: 8, installedBy: "hubot" }));
    await store.put(record({ id: 8, state: "deleted", repositories: [{ fullName: "Codertocat/X" }], updatedAt: 2 }));
    expect(await store.get(8)).toEqual(record({ id: 8, installedBy: "hubot", state: "deleted", repositories: [{ fullName: "Codertocat/X" }], updatedAt: 2 }));
  });

  it("stores a record without an installer as such", async () => {
    const store = await open();
    await store.put(record({ id: 9 }));
    const got = await store.get(9);
    expect(got).toEqual(record({ id: 9 }));
    expect(got?.installedBy).toBeUndefined();
  });

  it("keeps installations apart", async () => {
    const store = await open();
    await store.put(record({ id: 1, account: "one", installedBy: "a" }));
    await store.put(record({ id: 2, account: "two" }));
    expect((await store.get(1))?.account).toBe("one");
    expect(await store.get(2)).toEqual(record({ id: 2, account: "two" }));
    expect(await store.get(3)).toBeUndefined();
  });

  it("counts the job starts in a window, inclusive of its start", async () => {
    const store = await open();
    const t0 = Date.now() - HOUR;
    await store.recordStart(1, "job-a", t0);
    await store.recordStart(1, "job-b", t0 + 1000);
    await store.recordStart(1, "job-c", t0 + 2 * HOUR);
    expect(await store.jobsSince(1, t0 - 1)).toBe(3);
    expect(await store.jobsSince(1, t0)).toBe(3);
    expect(await store.jobsSince(1, t0 + 1)).toBe(2);
    expect(await store.jobsSince(1, t0 + 1000)).toBe(2);
    expect(await store.jobsSince(1, t0 + 1001)).toBe(1);
    expect(await store.jobsSince(1, t0 + 2 * HOUR + 1)).toBe(0);
  });

  it("counts a job that starts again once, at its first start", async () => {
    const store = await open();
    const t0 = Date.now() - HOUR;
    await store.recordStart(1, "job-a", t0);
    await store.recordStart(1, "job-a", t0 + 10 * 60_000);
    await store.recordStart(1, "job-a", t0 + 20 * 60_000);
    expect(await store.jobsSince(1, t0)).toBe(1);
    expect(await store.jobsSince(1, t0 + 1)).toBe(0);
  });

  it("keeps installations' usage apart", async () => {
    const store = await open();
    const t0 = Date.now() - 1000;
    await store.recordStart(1, "job-1a", t0);
    await store.recordStart(1, "job-1b", t0);
    await store.recordStart(2, "job-2a", t0);
    await store.recordCost(1, "job-1a", 1.5);
    await store.recordCost(2, "job-2a", 4);
    expect(await store.jobsSince(1, t0)).toBe(2);
    expect(await store.jobsSince(2, t0)).toBe(1);
    expect(await store.jobsSince(3, t0)).toBe(0);
    expect(await store.costSince(1, t0)).toBeCloseTo(1.5, 10);
    expect(await store.costSince(2, t0)).toBeCloseTo(4, 10);
    expect(await store.costSince(3, t0)).toBe(0);
  });

  it("sums what the jobs cost since a time, a job's cost replacing its earlier one", async () => {
    const store = await open();
    const t0 = Date.now() - HOUR;
    expect(await store.costSince(1, t0)).toBe(0);
    await store.recordStart(1, "job-a", t0);
    await store.recordStart(1, "job-b", t0 + 1000);
    await store.recordStart(1, "job-free", t0 + 2000);
    await store.recordCost(1, "job-a", 0.25);
    await store.recordCost(1, "job-b", 1);
    await store.recordCost(1, "job-b", 1.75); // the job's cost in all, recorded again
    expect(await store.costSince(1, t0)).toBeCloseTo(2, 10);
    expect(await store.costSince(1, t0 + 1)).toBeCloseTo(1.75, 10);
    expect(await store.costSince(1, t0 + 1001)).toBe(0);
    // Recording a cost is not a second start.
    expect(await store.jobsSince(1, t0)).toBe(3);
  });

  it("counts a job's cost in the month it started, not the month it ended", async () => {
    const store = await open();
    const thisMonth = monthStart(Date.now());
    // Started in the last millisecond of the previous month; its cost is recorded now.
    await store.recordStart(1, "job-last-month", thisMonth - 1);
    await store.recordStart(1, "job-this-month", thisMonth);
    await store.recordCost(1, "job-last-month", 3);
    await store.recordCost(1, "job-this-month", 0.5);
    expect(await store.costSince(1, thisMonth)).toBeCloseTo(0.5, 10);
    expect(await store.costSince(1, monthStart(thisMonth - 1))).toBeCloseTo(3.5, 10);
    expect(await store.jobsSince(1, thisMonth)).toBe(1);
  });

  it("counts a cost recorded for a job it never saw start as starting now", async () => {
    const store = await open();
    const before = Date.now();
    await store.recordCost(5, "job-unseen", 2);
    const after = Date.now();
    expect(await store.costSince(5, before)).toBeCloseTo(2, 10);
    expect(await store.costSince(5, after + 1)).toBe(0);
    expect(await store.jobsSince(5, before)).toBe(1);
  });

  it("keeps each repository's spend apart within its installation, in the month its jobs started", async () => {
    const store = await open();
    const thisMonth = monthStart(Date.now());
    await store.recordStart(1, "job-a", thisMonth, "octo/app");
    await store.recordStart(1, "job-b", thisMonth + 1, "octo/lib");
    await store.recordStart(1, "job-old", thisMonth - 1, "octo/app");
    await store.recordCost(1, "job-a", 1.25, "octo/app");
    await store.recordCost(1, "job-b", 2, "octo/lib");
    await store.recordCost(1, "job-old", 7, "octo/app");
    await store.recordCost(1, "job-unseen", 0.5, "octo/app"); // never seen start: starts now
    await store.recordCost(2, "job-other", 9, "octo/app"); // the same name under another installation
    expect(await store.costSince(1, thisMonth, "octo/app")).toBeCloseTo(1.75, 10);
    expect(await store.costSince(1, thisMonth, "octo/lib")).toBeCloseTo(2, 10);
    expect(await store.costSince(1, thisMonth, "octo/none")).toBe(0);
    expect(await store.costSince(1, thisMonth)).toBeCloseTo(3.75, 10);
    expect(await store.costSince(2, thisMonth, "octo/app")).toBeCloseTo(9, 10);
  });

  it("a second connection to the same store sees the first one's spend (another process)", async () => {
    const store = await open();
    const other = await reopen(store);
    const t0 = Date.now() - 1000;
    await store.recordStart(3, "job-1", t0, "octo/app");
    await other.recordStart(3, "job-2", t0, "octo/app");
    await store.recordCost(3, "job-1", 1, "octo/app");
    await other.recordCost(3, "job-2", 2, "octo/app");
    expect(await store.costSince(3, t0, "octo/app")).toBeCloseTo(3, 10);
    expect(await other.costSince(3, t0, "octo/app")).toBeCloseTo(3, 10);
  });
});

describe("SqliteInstallations", () => {
  it("keeps records and usage across a reopen of the data dir", async () => {
    const dataDir = await tempDir("crewbot-inst-");
    const first = new SqliteInstallations({ dataDir });
    const t0 = Date.now() - 1000;
    await first.put(record({ id: 11, installedBy: "hubot", repositories: [{ fullName: "Codertocat/A" }] }));
    await first.recordStart(11, "job-x", t0);
    await first.recordCost(11, "job-x", 0.5);
    await first.close();

    const second = new SqliteInstallations({ dataDir });
    opened.push(second);
    expect(await second.get(11)).toEqual(record({ id: 11, installedBy: "hubot", repositories: [{ fullName: "Codertocat/A" }] }));
    expect(await second.jobsSince(11, t0)).toBe(1);
    expect(await second.costSince(11, t0)).toBeCloseTo(0.5, 10);
  });
});

describe("RedisInstallations", () => {
  it("keeps records and usage apart under different prefixes", async () => {
    const a = new RedisInstallations({ url: redisUrl, prefix: `crewbot-test-${randomBytes(6).toString("hex")}` });
    const b = new RedisInstallations({ url: redisUrl, prefix: `crewbot-test-${randomBytes(6).toString("hex")}` });
    opened.push(a, b);
    await a.put(record({ id: 1, installedBy: "hubot" }));
    await a.recordStart(1, "job-a", Date.now());
    expect(await b.get(1)).toBeUndefined();
    expect(await b.jobsSince(1, 0)).toBe(0);
  });
});
