/** The ci-fix round counter, the same contract on SQLite and Redis: atomic, shared, announced once, surviving a reopen. */
import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import type { CiFixRounds } from "../../src/jobs/ci-fix-rounds.js";
import { RedisCiFixRounds } from "../../src/store/redis/ci-fix-rounds.js";
import { SqliteCiFixRounds } from "../../src/store/sqlite/ci-fix-rounds.js";
import { redisPrefixFor, tempDataDir } from "../queue/helpers.js";
import { startRedis } from "../queue/redis-server.js";

const server = await startRedis();

/** A head commit of its own for each job (a round per head): what most claims have. */
const headOf = (jobId: string) => createHash("sha1").update(jobId).digest("hex");
afterAll(() => server.stop());

const stores: Array<[string, (place: string, now?: () => number) => CiFixRounds]> = [
  ["SqliteCiFixRounds", (dataDir, now) => new SqliteCiFixRounds(now ? { dataDir, now } : { dataDir })],
  ["RedisCiFixRounds", (dir, now) => new RedisCiFixRounds({ url: server.url, prefix: redisPrefixFor(dir), ...(now ? { now } : {}) })],
];

describe.each(stores)("%s", (_name, open) => {
  it("counts rounds up to the limit, then answers exhausted and announces exactly once", async () => {
    const store = open(await tempDataDir());
    expect(await store.get("Octo/Repo", 2)).toBeUndefined();
    expect(await store.claim("Octo/Repo", 2, 2, "job-1", headOf("job-1"))).toEqual({ kind: "round", round: 1 });
    expect(await store.claim("octo/repo", 2, 2, "job-2", headOf("job-2"))).toEqual({ kind: "round", round: 2 });
    expect(await store.claim("Octo/Repo", 2, 2, "job-3", headOf("job-3"))).toEqual({ kind: "exhausted", rounds: 2, announce: true });
    expect(await store.claim("Octo/Repo", 2, 2, "job-4", headOf("job-4"))).toEqual({ kind: "exhausted", rounds: 2, announce: false });
    expect(await store.get("Octo/Repo", 2)).toEqual({ rounds: 2, stopped: true });
    // Another pull request counts on its own.
    expect(await store.claim("Octo/Repo", 3, 2, "job-5", headOf("job-5"))).toEqual({ kind: "round", round: 1 });
    // A higher limit later (the config changed) gives more rounds, and a stop is announced again after them.
    expect(await store.claim("Octo/Repo", 2, 3, "job-6", headOf("job-6"))).toEqual({ kind: "round", round: 3 });
    expect(await store.claim("Octo/Repo", 2, 3, "job-7", headOf("job-7"))).toEqual({ kind: "exhausted", rounds: 3, announce: true });
    await store.close();
  });

  it("gives a round back only when it is still the last one taken", async () => {
    const store = open(await tempDataDir());
    await store.claim("o/r", 1, 5, "job-8", headOf("job-8"));
    await store.claim("o/r", 1, 5, "job-9", headOf("job-9"));
    await store.release("o/r", 1, 1); // not the last: nothing changes
    expect(await store.get("o/r", 1)).toEqual({ rounds: 2, stopped: false });
    await store.release("o/r", 1, 2);
    expect(await store.get("o/r", 1)).toEqual({ rounds: 1, stopped: false });
    expect(await store.claim("o/r", 1, 5, "job-10", headOf("job-10"))).toEqual({ kind: "round", round: 2 });
    await store.close();
  });

  it("never gives two claimers the same round, and the count survives a reopen (another worker, a restart)", async () => {
    const place = await tempDataDir();
    const a = open(place);
    const b = open(place);
    const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).claim("o/r", 7, 4, `job-c${i}`, headOf(`job-c${i}`))));
    const rounds = claims.filter((c) => c.kind === "round").map((c) => (c as { round: number }).round).sort();
    expect(rounds).toEqual([1, 2, 3, 4]);
    expect(claims.filter((c) => c.kind === "exhausted" && c.announce)).toHaveLength(1);
    await a.close();
    await b.close();
    const again = open(place);
    expect(await again.get("o/r", 7)).toEqual({ rounds: 4, stopped: true });
    await again.close();
  });

  it("gives the same job its round again (requeued after its worker died), not a new one", async () => {
    const store = open(await tempDataDir());
    expect(await store.claim("o/r", 4, 2, "job-x", headOf("job-x"))).toEqual({ kind: "round", round: 1 });
    expect(await store.claim("o/r", 4, 2, "job-x", headOf("job-x"))).toEqual({ kind: "round", round: 1 });
    expect(await store.claim("o/r", 4, 2, "job-y", headOf("job-y"))).toEqual({ kind: "round", round: 2 });
    expect(await store.claim("o/r", 4, 2, "job-y", headOf("job-y"))).toEqual({ kind: "round", round: 2 });
    expect(await store.claim("o/r", 4, 2, "job-x", headOf("job-x"))).toEqual({ kind: "exhausted", rounds: 2, announce: true });
    await store.close();
  });

  it("one round per head: another job on the head the last round kept is refused; a round given back frees its head", async () => {
    const store = open(await tempDataDir());
    const head = "a".repeat(40);
    expect(await store.claim("o/r", 5, 3, "job-older", head)).toEqual({ kind: "round", round: 1 });
    expect(await store.claim("o/r", 5, 3, "job-newer", head)).toEqual({ kind: "taken", round: 1 });
    expect(await store.claim("o/r", 5, 3, "job-older", head)).toEqual({ kind: "round", round: 1 }); // requeued: its own round
    expect(await store.get("o/r", 5)).toEqual({ rounds: 1, stopped: false });
    await store.release("o/r", 5, 1);
    expect(await store.claim("o/r", 5, 3, "job-newer", head)).toEqual({ kind: "round", round: 1 });
    // The pushed head is a new one: its round is the next.
    expect(await store.claim("o/r", 5, 3, "job-next", "b".repeat(40))).toEqual({ kind: "round", round: 2 });
    expect(await store.claim("o/r", 5, 3, "job-late", "b".repeat(40))).toEqual({ kind: "taken", round: 2 });
    // Another pull request's head is its own business.
    expect(await store.claim("o/r", 6, 3, "job-other", "b".repeat(40))).toEqual({ kind: "round", round: 1 });
    await expect(store.claim("o/r", 5, 3, "job-bad", "main")).rejects.toThrow(/head.s commit id/);
    await store.close();
  });

  it("two jobs of one head claiming at once: exactly one gets the round", async () => {
    const place = await tempDataDir();
    const a = open(place);
    const b = open(place);
    const head = "c".repeat(40);
    const claims = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).claim("o/r", 8, 4, `job-h${i}`, head)));
    expect(claims.filter((c) => c.kind === "round")).toEqual([{ kind: "round", round: 1 }]);
    expect(claims.filter((c) => c.kind === "taken")).toHaveLength(5);
    await a.close();
    await b.close();
  });

  it("prunes counts not changed since the cutoff, and refuses bad keys and limits", async () => {
    let now = 1_000;
    const store = open(await tempDataDir(), () => now);
    await store.claim("o/r", 1, 2, "job-12", headOf("job-12"));
    now = 5_000;
    await store.claim("o/r", 2, 2, "job-13", headOf("job-13"));
    expect(await store.prune(2_000)).toBe(1);
    expect(await store.get("o/r", 1)).toBeUndefined();
    expect(await store.get("o/r", 2)).toEqual({ rounds: 1, stopped: false });
    await expect(store.claim("not-a-repo", 1, 2, "job-14", headOf("job-14"))).rejects.toThrow(/owner\/repo/);
    await expect(store.claim("o/r", 0, 2, "job-15", headOf("job-15"))).rejects.toThrow(/positive integer/);
    await expect(store.claim("o/r", 1, 0, "job-16", headOf("job-16"))).rejects.toThrow(/above 0/);
    await expect(store.claim("o/r", 1, 2, "", headOf("x"))).rejects.toThrow(/job.s id/);
    await store.close();
  });
});
