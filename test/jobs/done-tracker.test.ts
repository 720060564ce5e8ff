import { describe, expect, it } from "vitest";
import { DoneTracker } from "../../src/jobs/done-tracker.js";

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
