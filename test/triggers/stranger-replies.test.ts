import { describe, expect, it } from "vitest";
import { MemoryCounters, ReplyLimiter, REPLY_WINDOW_MS, type CounterStore } from "../../src/triggers/stranger-replies.js";

const place = (login: string, number: number, installationId = 1, repo = "Hello-World", writer = false) => ({ installationId, login, writer, owner: "Codertocat", repo, number });

describe("ReplyLimiter", () => {
  it("answers once per person, issue and installation an hour; case does not make a new person", async () => {
    let now = 0;
    const limiter = new ReplyLimiter(new MemoryCounters(() => now), 100);
    const allowed = async (p: ReturnType<typeof place>) => (await limiter.allow(p)).reply;
    expect(await allowed(place("mallory", 1))).toBe(true);
    expect(await allowed(place("mallory", 1))).toBe(false);
    expect(await allowed(place("MALLORY", 1))).toBe(false);
    expect(await allowed(place("mallory", 2))).toBe(true); // another issue
    expect(await allowed(place("mallory", 1, 1, "Other"))).toBe(true); // another repository's #1
    expect(await allowed(place("mallory", 1, 2))).toBe(true); // another installation
    expect(await allowed(place("eve", 1))).toBe(true); // another person
    now += REPLY_WINDOW_MS - 1;
    expect(await allowed(place("mallory", 1))).toBe(false);
    now += 1;
    expect(await allowed(place("mallory", 1))).toBe(true);
    expect(await limiter.allow(place("mallory", 1))).toEqual({ reply: false, reason: "already answered on this issue within the hour" });
  });

  it("spends at most its installation's budget an hour, whoever asks", async () => {
    let now = 0;
    const limiter = new ReplyLimiter(new MemoryCounters(() => now));
    const verdicts = [];
    for (let n = 1; n <= 7; n++) verdicts.push((await limiter.allow(place(`stranger${n}`, n))).reply);
    expect(verdicts).toEqual([true, true, true, true, true, false, false]);
    expect(await limiter.allow(place("stranger8", 8))).toEqual({ reply: false, reason: "the installation's 5 replies of the hour are spent" });
    expect((await limiter.allow(place("stranger9", 9, 2))).reply).toBe(true); // another installation's budget
    now += REPLY_WINDOW_MS;
    expect((await limiter.allow(place("stranger10", 10))).reply).toBe(true);
  });

  it("always answers a writer, counting nothing: the stranger's budget stays whole", async () => {
    const calls: string[] = [];
    const limiter = new ReplyLimiter({ increment: async (key) => (calls.push(key), 1) }, 1);
    for (let i = 0; i < 5; i++) expect(await limiter.allow(place("Codertocat", 1, 1, "Hello-World", true))).toEqual({ reply: true });
    expect(calls).toEqual([]);
  });

  it("takes any counter store (the shape a Redis INCR + PEXPIRE NX store has)", async () => {
    const calls: Array<[string, number]> = [];
    const counts = new Map<string, number>();
    const store: CounterStore = { increment: async (key, windowMs) => (calls.push([key, windowMs]), counts.set(key, (counts.get(key) ?? 0) + 1).get(key)!) };
    const limiter = new ReplyLimiter(store);
    await limiter.allow(place("Mallory", 7));
    expect(calls).toEqual([
      ["crewbot:reply:1:mallory:codertocat/hello-world#7", REPLY_WINDOW_MS],
      ["crewbot:replies:1", REPLY_WINDOW_MS],
    ]);
  });
});

describe("MemoryCounters", () => {
  it("counts in windows from the first add, and stays bounded", async () => {
    let now = 0;
    const counters = new MemoryCounters(() => now);
    expect([await counters.increment("a", 10), await counters.increment("a", 10)]).toEqual([1, 2]);
    now = 10;
    expect(await counters.increment("a", 10)).toBe(1);
    for (let i = 0; i < 25_000; i++) await counters.increment(`k${i}`, 1_000_000);
    expect(await counters.increment("k24999", 1_000_000)).toBe(2);
    expect(await counters.increment("k0", 1_000_000)).toBe(1); // the oldest were dropped
  });
});
