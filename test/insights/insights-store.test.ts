/** The insight events' store, the same contract on SQLite and Redis. */
import { afterAll, describe, expect, it } from "vitest";
import type { InsightsStore } from "../../src/insights/events.js";
import { RedisInsights } from "../../src/store/redis/insights.js";
import { SqliteInsights } from "../../src/store/sqlite/insights.js";
import { redisPrefixFor, tempDataDir } from "../queue/helpers.js";
import { startRedis } from "../queue/redis-server.js";
import { closedAfterEach } from "../store/closed-after-each.js";

const server = await startRedis();
afterAll(() => server.stop());

const stores: Array<[string, (place: string) => InsightsStore]> = [
  ["SqliteInsights", (dataDir) => new SqliteInsights({ dataDir })],
  ["RedisInsights", (dir) => new RedisInsights({ url: server.url, prefix: redisPrefixFor(dir) })],
];

const ends = (open: number) => ({ reproduced: { fixed: 0, dismissed: 0, open: 0 }, unverified: { fixed: 0, dismissed: 0, open } });

describe.each(stores)("%s", (_name, make) => {
  const open = closedAfterEach(make);

  it("a later close of the same pull request replaces the first; a first review stays the first", async () => {
    const store = open(await tempDataDir());
    expect(await store.put("Octo/Hello", { type: "pull-request", key: "3", at: 100, number: 3, merged: false, ends: ends(2) })).toBe(true);
    expect(await store.put("Octo/Hello", { type: "pull-request", key: "3", at: 300, number: 3, merged: true, ends: ends(1) })).toBe(true);
    expect(await store.put("octo/hello", { type: "first-review", key: "3", at: 50, number: 3, openedAt: 10 })).toBe(true);
    expect(await store.put("octo/hello", { type: "first-review", key: "3", at: 250, number: 3, openedAt: 10 })).toBe(false);
    expect(await store.between("OCTO/HELLO", 0, 1000)).toEqual([
      { type: "first-review", key: "3", at: 50, number: 3, openedAt: 10 },
      { type: "pull-request", key: "3", at: 300, number: 3, merged: true, ends: ends(1) },
    ]);
    expect(await store.between("octo/hello", 0, 300)).toHaveLength(1); // [from, to)
  });

  it("lists repositories with an event since a time, spelled as last written, and forgets old events", async () => {
    const store = open(await tempDataDir());
    await store.put("octo/zeta", { type: "job", key: "j1", at: 100, kind: "ask", state: "succeeded", costUsd: 0 });
    await store.put("Octo/Alpha", { type: "job", key: "j2", at: 500, kind: "review", state: "failed", costUsd: 0.5 });
    expect(await store.repositories(0)).toEqual(["Octo/Alpha", "octo/zeta"]);
    expect(await store.repositories(200)).toEqual(["Octo/Alpha"]);
    expect(await store.prune(200)).toBe(1);
    expect(await store.between("octo/zeta", 0, 1000)).toEqual([]);
    expect(await store.repositories(0)).toEqual(["Octo/Alpha"]);
  });

  it("refuses an event without a repository, type, key or whole time", async () => {
    const store = open(await tempDataDir());
    await expect(store.put("nonsense", { type: "job", key: "j", at: 1, kind: "ask", state: "succeeded", costUsd: 0 })).rejects.toThrow(TypeError);
    await expect(store.put("o/r", { type: "job", key: "", at: 1, kind: "ask", state: "succeeded", costUsd: 0 })).rejects.toThrow(TypeError);
    await expect(store.put("o/r", { type: "job", key: "j", at: 1.5, kind: "ask", state: "succeeded", costUsd: 0 })).rejects.toThrow(TypeError);
  });
});
