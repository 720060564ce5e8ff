/**
 * The limits every process shares, on a real redis-server: two write gates of one installation in two
 * "processes" (each its own connection) stay within one budget together; progress edits of one leave the
 * reserve to the other's final edit; one person's command bucket and the deliveries seen are one for all.
 */
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { WriteGate, type WriteBudget } from "../../src/report/write-gate.js";
import { RedisSharedLimits } from "../../src/store/redis/shared-limits.js";
import { ReplyLimiter } from "../../src/triggers/stranger-replies.js";
import { startRedis } from "../queue/redis-server.js";

const server = await startRedis();
afterAll(() => server.stop());

const opened: RedisSharedLimits[] = [];
afterEach(async () => void (await Promise.all(opened.splice(0).map((l) => l.close()))));

/** `n` processes' stores on one fresh prefix. */
function processes(n: number): RedisSharedLimits[] {
  const prefix = `crewbot-test:${randomBytes(4).toString("hex")}`;
  return Array.from({ length: n }, () => {
    const limits = new RedisSharedLimits({ url: server.url, prefix });
    opened.push(limits);
    return limits;
  });
}

const realClock = { now: () => Date.now(), sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) };

/** Starts `count` writes through `gate`, recording when each started. */
function writes(gate: WriteGate, count: number, started: number[], progress = false): Promise<unknown> {
  return Promise.all(Array.from({ length: count }, (_, i) => gate.run(async () => (await gate.turn(), started.push(Date.now())), progress ? { progress, key: `c${i}` } : {})));
}

/** The most writes in any window of `ms`. */
function mostIn(started: number[], ms: number): number {
  const t = [...started].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; j < t.length; j++) {
    while (t[j]! - t[i]! >= ms) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

describe("the shared write budget", () => {
  // 5 at once, then 10 a second: small enough to see in a test, the same buckets as GitHub's minute and hour.
  const budget: Partial<WriteBudget> = { minuteBurst: 5, perMinute: 600, hourBurst: 1000, perHour: 1_000_000, progressReserve: { minute: 2, hour: 0 } };

  it("keeps two processes' gates of one installation within one budget together", async () => {
    const [a, b] = processes(2);
    const started: number[] = [];
    const gates = [a!, b!].map((store) => new WriteGate(0, realClock, budget, { store, installationId: 42 }));
    await Promise.all(gates.map((g) => writes(g, 15, started)));
    expect(started).toHaveLength(30);
    // Together: the burst at once, then the rate — never a burst per process.
    expect(mostIn(started, 50)).toBeLessThanOrEqual(5);
    expect(mostIn(started, 1000)).toBeLessThanOrEqual(5 + 10 + 1);
    expect(Math.max(...started) - Math.min(...started)).toBeGreaterThanOrEqual(2_000); // (30 - 5) writes at 10 a second
    expect(gates.map((g) => g.started)).toEqual([15, 15]);
  }, 20_000);

  it("each installation has its own budget", async () => {
    const [a, b] = processes(2);
    const started: number[] = [];
    await Promise.all([writes(new WriteGate(0, realClock, budget, { store: a!, installationId: 1 }), 5, started), writes(new WriteGate(0, realClock, budget, { store: b!, installationId: 2 }), 5, started)]);
    expect(Math.max(...started) - Math.min(...started)).toBeLessThan(500);
  });

  it("spaces the writes of all processes", async () => {
    const [a, b] = processes(2);
    const started: number[] = [];
    const gates = [a!, b!].map((store) => new WriteGate(200, realClock, budget, { store, installationId: 7 }));
    await Promise.all(gates.map((g) => writes(g, 3, started)));
    const t = [...started].sort((x, y) => x - y);
    for (let i = 1; i < t.length; i++) expect(t[i]! - t[i - 1]!).toBeGreaterThanOrEqual(195);
  });

  it("one process's progress edits leave the reserve to another process's final edit", async () => {
    const [a, b] = processes(2);
    const slow = { ...budget, perMinute: 6 }; // one token in 10 s: only the burst is there in this test
    const flood = new WriteGate(0, realClock, slow, { store: a!, installationId: 9 });
    const other = new WriteGate(0, realClock, slow, { store: b!, installationId: 9 });
    const progress: number[] = [];
    void writes(flood, 10, progress, true);
    await new Promise((r) => setTimeout(r, 300));
    expect(progress).toHaveLength(3); // 5 - the reserve of 2
    const final: number[] = [];
    const t0 = Date.now();
    await writes(other, 2, final);
    expect(final.every((t) => t - t0 < 300)).toBe(true);
    expect(progress).toHaveLength(3);
  });
});

describe("the shared command limits and deliveries", () => {
  it("one person's bucket is one for every process, per installation", async () => {
    const [a, b] = processes(2);
    const limit = { burst: 2, perMinute: 1 };
    const [one, two] = [a!.admission(limit), b!.admission(limit)];
    expect(await one.take(1, "Codertocat")).toBe("go");
    expect(await two.take(1, "codertocat")).toBe("go");
    expect(await one.take(1, "CODERTOCAT")).toBe("slow-down"); // answered once…
    expect(await two.take(1, "Codertocat")).toBe("drop"); // …then silent, whichever process
    expect(await two.waitSeconds(1, "Codertocat")).toBeGreaterThan(55);
    expect(await two.waitSeconds(1, "Codertocat")).toBeLessThanOrEqual(60);
    expect(await one.take(2, "Codertocat")).toBe("go"); // another installation
    expect(await one.waitSeconds(3, "someone")).toBe(0);
  });

  it("a delivery is new once across processes, again after it is forgotten", async () => {
    const [a, b] = processes(2);
    const limit = { burst: 2, perMinute: 1 };
    const [one, two] = [a!.admission(limit), b!.admission(limit)];
    const answers = await Promise.all([one.newDelivery("guid-1"), two.newDelivery("guid-1"), one.newDelivery("guid-1")]);
    expect(answers.filter(Boolean)).toHaveLength(1);
    await two.forget("guid-1");
    expect(await one.newDelivery("guid-1")).toBe(true);
  });
});

describe("the shared reply counts", () => {
  const place = (login: string, number = 1) => ({ installationId: 7, login, writer: false, owner: "Codertocat", repo: "Hello-World", number });

  it("a stranger is answered once per issue an hour whichever process hears them, and the installation's replies are counted together", async () => {
    const [a, b] = processes(2);
    const [one, two] = [new ReplyLimiter(a!.replyCounters()), new ReplyLimiter(b!.replyCounters())];
    expect(await one.allow(place("eve"))).toEqual({ reply: true });
    expect((await two.allow(place("EVE"))).reply).toBe(false);
    expect(await two.allow(place("eve", 2))).toEqual({ reply: true }); // another issue
    // Five an installation an hour, across both processes.
    const more = await Promise.all(["m1", "m2", "m3", "m4"].map((login, i) => (i % 2 ? one : two).allow(place(login))));
    expect(more.filter((v) => v.reply)).toHaveLength(3);
  });

  it("a count expires with its window", async () => {
    const [a] = processes(1);
    const counters = a!.replyCounters();
    expect(await counters.increment("crewbot:reply:test", 200)).toBe(1);
    expect(await counters.increment("crewbot:reply:test", 200)).toBe(2);
    await new Promise((r) => setTimeout(r, 300));
    expect(await counters.increment("crewbot:reply:test", 200)).toBe(1);
  });
});
