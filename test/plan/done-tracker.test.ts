import { describe, expect, it } from "vitest";
import { DoneTracker } from "../../src/plan/done-tracker.js";

describe("DoneTracker", () => {
  it("reports each step once, as soon as its marker is complete", () => {
    const t = new DoneTracker(3);
    expect(t.push("Working on it.\n[DO")).toEqual([]);
    expect(t.push("NE:1]\n")).toEqual([1]);
    expect(t.push("again [DONE:1] and [DONE:3]")).toEqual([3]);
    expect(t.push("\n```\n[DONE:2]\n```\n")).toEqual([]); // in code: not a report
    expect(t.push("[DONE:9]")).toEqual([]); // no such step
    expect(t.done).toEqual([1, 3]);
  });
});

describe("DoneTracker.mark (complete_step)", () => {
  it("marks a step once, refuses steps the plan lacks, and a later marker for it is not news", () => {
    const t = new DoneTracker(3);
    expect(t.mark(2)).toBe(true);
    expect(t.mark(2)).toBe(false);
    expect([t.mark(0), t.mark(4)]).toEqual([false, false]);
    expect(t.push("[DONE:2] [DONE:1]")).toEqual([1]);
    expect(t.done).toEqual([1, 2]);
  });
});
