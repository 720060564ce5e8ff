import { describe, expect, it } from "vitest";
import { DEFAULT_WRITE_BUDGET, WriteGate, WriteSuperseded } from "../../src/report/write-gate.js";
import { fakeClock } from "../helpers/github.js";

/** A write of `name` that records when it started, through the gate like GitHubWriter's. */
function writer(gate: WriteGate, log: Array<{ name: string; at: number }>) {
  return (name: string, options: { progress?: boolean; key?: string; apart?: boolean } = {}) =>
    gate.run(async () => {
      await gate.turn();
      log.push({ name, at: gate.clock.now() });
      return name;
    }, options);
}

/** The most starts inside any window of `windowMs` (inclusive of both ends). */
function mostIn(times: number[], windowMs: number): number {
  let most = 0;
  for (let i = 0, j = 0; j < times.length; j += 1) {
    while (times[j]! - times[i]! >= windowMs) i += 1;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

describe("WriteGate", () => {
  it("keeps any minute under 80 writes and any hour under 500, even without spacing", async () => {
    const clock = fakeClock();
    const gate = new WriteGate(0, clock);
    const log: Array<{ name: string; at: number }> = [];
    const write = writer(gate, log);
    await Promise.all(Array.from({ length: 700 }, (_, i) => write(`w${i}`)));
    const times = log.map((l) => l.at);
    expect(log).toHaveLength(700);
    expect(mostIn(times, 60_000)).toBeLessThanOrEqual(DEFAULT_WRITE_BUDGET.minuteBurst + DEFAULT_WRITE_BUDGET.perMinute);
    expect(mostIn(times, 60_000)).toBeLessThanOrEqual(60);
    expect(mostIn(times, 3_600_000)).toBeLessThanOrEqual(DEFAULT_WRITE_BUDGET.hourBurst + DEFAULT_WRITE_BUDGET.perHour);
    expect(mostIn(times, 3_600_000)).toBeLessThan(500);
    expect(log.map((l) => l.name)).toEqual(Array.from({ length: 700 }, (_, i) => `w${i}`)); // in order
  });

  it("spaces starts minSpacingMs apart", async () => {
    const clock = fakeClock();
    const gate = new WriteGate(1000, clock);
    const log: Array<{ name: string; at: number }> = [];
    const write = writer(gate, log);
    await Promise.all(["a", "b", "c"].map((n) => write(n)));
    expect(log.map((l) => l.at - log[0]!.at)).toEqual([0, 1000, 2000]);
  });

  it("lets every other write pass queued progress edits", async () => {
    const clock = fakeClock();
    const gate = new WriteGate(1000, clock);
    const log: Array<{ name: string; at: number }> = [];
    const write = writer(gate, log);
    const all = [write("p1", { progress: true, key: "c1" }), write("p2", { progress: true, key: "c2" }), write("p3", { progress: true, key: "c3" })];
    all.push(write("final", { key: "c9" }), write("post"));
    await Promise.all(all);
    // p1 found the gate free and started at once; the others waited for the final edit and the post.
    expect(log.map((l) => l.name)).toEqual(["p1", "final", "post", "p2", "p3"]);
  });

  it("drops a queued progress edit when a newer write of the same comment comes", async () => {
    const clock = fakeClock();
    const gate = new WriteGate(1000, clock);
    const log: Array<{ name: string; at: number }> = [];
    const write = writer(gate, log);
    const busy = write("other"); // holds the gate while the rest queue
    const stale = write("edit-1", { progress: true, key: "c1" });
    const newer = write("edit-2", { progress: true, key: "c1" });
    const final = write("final", { key: "c1" });
    await expect(stale).rejects.toBeInstanceOf(WriteSuperseded);
    await expect(newer).rejects.toBeInstanceOf(WriteSuperseded);
    expect(await final).toBe("final");
    await busy;
    expect(log.map((l) => l.name)).toEqual(["other", "final"]);
  });

  it("never drops a write that is not a progress edit", async () => {
    const clock = fakeClock();
    const gate = new WriteGate(1000, clock);
    const log: Array<{ name: string; at: number }> = [];
    const write = writer(gate, log);
    await Promise.all([write("a", { key: "c1" }), write("b", { key: "c1" })]);
    expect(log.map((l) => l.name)).toEqual(["a", "b"]);
  });

  it("progress edits leave a reserve: once the hour's budget runs low they wait, other writes go at once", async () => {
    const clock = fakeClock();
    const gate = new WriteGate(1000, clock, { hourBurst: 40, perHour: 400, progressReserve: { minute: 5, hour: 30 } });
    const log: Array<{ name: string; at: number }> = [];
    const write = writer(gate, log);
    const edits = Array.from({ length: 20 }, (_, i) => write(`p${i}`, { progress: true, key: `c${i}` }));
    await Promise.all(edits);
    // 40 tokens, 30 kept: about 10 edits go 1 s apart, then one per refilled token (400/h: every 9 s).
    const gaps = log.slice(1).map((l, i) => l.at - log[i]!.at);
    expect(gaps.slice(0, 10)).toEqual(Array(10).fill(1000));
    expect(gaps.slice(11)).toEqual(Array(8).fill(9000));
    const before = clock.now();
    await write("final", { key: "c99" });
    expect(log.at(-1)!.at - before).toBeLessThanOrEqual(1000); // the reserve is there for it
  });

  it("writes budgeted apart (strangers' replies) take none of the jobs' tokens, are spaced, and go after the jobs' waiting writes", async () => {
    const clock = fakeClock();
    const gate = new WriteGate(1000, clock, { minuteBurst: 3, perMinute: 1, hourBurst: 100 });
    const log: Array<{ name: string; at: number }> = [];
    const write = writer(gate, log);
    // Ten replies first: the jobs' three tokens of the minute are all still theirs afterwards.
    await Promise.all(Array.from({ length: 10 }, (_, i) => write(`r${i}`, { apart: true })));
    expect(log.slice(1).map((l, i) => l.at - log[i]!.at)).toEqual(Array(9).fill(1000));
    const before = clock.now();
    await Promise.all([write("j1"), write("j2"), write("j3")]);
    expect(log.slice(-3).map((l) => l.at - before)).toEqual([1000, 2000, 3000]); // spacing only: no wait for a refill

    // Queued together, the jobs' writes go first.
    log.length = 0;
    const all = [write("busy"), write("reply", { apart: true }), write("job post"), write("job edit", { key: "c1" })];
    await Promise.all(all);
    expect(log.map((l) => l.name)).toEqual(["busy", "job post", "job edit", "reply"]);
  });

  it("a final edit waits for at most the write in flight and the spacing while edits of 8 jobs stream", async () => {
    const clock = fakeClock();
    const gate = new WriteGate(1000, clock);
    const log: Array<{ name: string; at: number }> = [];
    const write = writer(gate, log);
    const queued = Array.from({ length: 200 }, (_, i) => write(`p${i}`, { progress: true, key: `c${i % 8}-${i}` }));
    const asked = clock.now();
    await write("final", { key: "done" });
    expect(log.find((l) => l.name === "final")!.at - asked).toBeLessThanOrEqual(1000);
    await Promise.all(queued);
  });
});
