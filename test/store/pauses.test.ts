/** The pause store, the same contract on SQLite and Redis: per pull request, answered plainly twice, surviving a reopen, pruned. */
import { afterAll, describe, expect, it } from "vitest";
import type { PauseStore } from "../../src/review/pauses.js";
import { RedisPauses } from "../../src/store/redis/pauses.js";
import { SqlitePauses } from "../../src/store/sqlite/pauses.js";
import { redisPrefixFor, tempDataDir } from "../queue/helpers.js";
import { startRedis } from "../queue/redis-server.js";
import { closedAfterEach } from "./closed-after-each.js";

const server = await startRedis();
afterAll(() => server.stop());

const stores: Array<[string, (place: string, now?: () => number) => PauseStore]> = [
  ["SqlitePauses", (dataDir, now) => new SqlitePauses(now ? { dataDir, now } : { dataDir })],
  ["RedisPauses", (dir, now) => new RedisPauses({ url: server.url, prefix: redisPrefixFor(dir), ...(now ? { now } : {}) })],
];

describe.each(stores)("%s", (_name, make) => {
  const open = closedAfterEach(make);

  it("pauses one pull request, says who and when, and leaves the others alone", async () => {
    const store = open(await tempDataDir(), () => 1_000);
    expect(await store.get("octo/hello", 2)).toBeUndefined();
    expect(await store.pause("Octo/Hello", 2, "alice")).toEqual({});
    expect(await store.get("octo/hello", 2)).toEqual({ by: "alice", at: 1_000 });
    expect(await store.get("octo/hello", 3)).toBeUndefined();
    expect(await store.get("octo/other", 2)).toBeUndefined();
  });

  it("answers a second pause with the first (kept as it is), and a resume of what is not paused with nothing", async () => {
    let now = 1_000;
    const store = open(await tempDataDir(), () => now);
    expect(await store.resume("octo/hello", 2)).toEqual({});
    await store.pause("octo/hello", 2, "alice");
    now = 2_000;
    expect(await store.pause("octo/hello", 2, "bob")).toEqual({ was: { by: "alice", at: 1_000 } });
    expect(await store.resume("octo/hello", 2)).toEqual({ was: { by: "alice", at: 1_000 } });
    expect(await store.get("octo/hello", 2)).toBeUndefined();
    expect(await store.resume("octo/hello", 2)).toEqual({});
    now = 3_000;
    expect(await store.pause("octo/hello", 2, "bob")).toEqual({});
    expect(await store.get("octo/hello", 2)).toEqual({ by: "bob", at: 3_000 });
  });

  it("keeps a pause across a reopen (a restart, another worker)", async () => {
    const place = await tempDataDir();
    const first = open(place, () => 1_000);
    await first.pause("octo/hello", 2, "alice");
    await first.close();
    expect(await open(place).get("octo/hello", 2)).toEqual({ by: "alice", at: 1_000 });
  });

  it("prunes pauses last changed before the cut", async () => {
    let now = 1_000;
    const store = open(await tempDataDir(), () => now);
    await store.pause("octo/hello", 1, "alice");
    now = 5_000;
    await store.pause("octo/hello", 2, "alice");
    expect(await store.prune(2_000)).toBe(1);
    expect(await store.get("octo/hello", 1)).toBeUndefined();
    expect(await store.get("octo/hello", 2)).toEqual({ by: "alice", at: 5_000 });
  });

  it("refuses a malformed key or no one to pause", async () => {
    const store = open(await tempDataDir());
    await expect(store.get("nope", 1)).rejects.toThrow(TypeError);
    await expect(store.pause("octo/hello", 0, "alice")).rejects.toThrow(TypeError);
    await expect(store.pause("octo/hello", 1, "")).rejects.toThrow(TypeError);
  });
});
