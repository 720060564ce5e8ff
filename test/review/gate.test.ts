import { describe, expect, it } from "vitest";
import type { Severity } from "../../src/review/types.js";
import { blocking, gateConclusion, type FailOn, type GateRun } from "../../src/review/gate.js";

const open = (...severities: Severity[]) => severities.map((severity) => ({ severity }));

describe("gateConclusion", () => {
  const table: Array<[FailOn | undefined, GateRun, Severity[], string]> = [
    // No gate: findings only inform, skips stay skipped.
    [undefined, "clean", ["critical"], "success"],
    ["never", "clean", ["critical"], "success"],
    ["never", "findings", [], "neutral"],
    ["never", "skipped", ["critical"], "skipped"],
    // critical: any open critical — of this review or an earlier one — fails, whatever the run was.
    ["critical", "clean", [], "success"],
    ["critical", "clean", ["critical"], "failure"],
    ["critical", "findings", ["warning", "suggestion"], "success"],
    ["critical", "findings", ["warning", "critical"], "failure"],
    ["critical", "skipped", [], "neutral"],
    ["critical", "skipped", ["warning"], "neutral"],
    ["critical", "skipped", ["critical"], "failure"],
    // warning: criticals and warnings fail; suggestions never do.
    ["warning", "clean", ["suggestion"], "success"],
    ["warning", "clean", ["warning"], "failure"],
    ["warning", "findings", ["critical"], "failure"],
    ["warning", "skipped", ["suggestion", "suggestion"], "neutral"],
    ["warning", "skipped", ["warning"], "failure"],
    // paused (`/crewbot pause`): neutral even without a gate; with one, the open findings hold it as for a skip.
    [undefined, "paused", ["critical"], "neutral"],
    ["never", "paused", [], "neutral"],
    ["critical", "paused", ["warning"], "neutral"],
    ["critical", "paused", ["critical"], "failure"],
    // capped (a monthly spend cap reached): like paused — neutral, unless the sticky gate holds.
    [undefined, "capped", ["critical"], "neutral"],
    ["never", "capped", [], "neutral"],
    ["critical", "capped", ["warning"], "neutral"],
    ["critical", "capped", ["critical"], "failure"],
    ["reproduced", "capped", [], "neutral"],
  ];
  it.each(table)("failOn %s, run %s, open %j → %s", (failOn, run, severities, conclusion) => {
    expect(gateConclusion(failOn, run, open(...severities))).toBe(conclusion);
  });
});

describe("blocking", () => {
  it("keeps the findings at or above the level, in order", () => {
    const found = [
      { severity: "suggestion" as const, id: 1 },
      { severity: "critical" as const, id: 2 },
      { severity: "warning" as const, id: 3 },
    ];
    expect(blocking("never", found)).toEqual([]);
    expect(blocking(undefined, found)).toEqual([]);
    expect(blocking("critical", found).map((f) => f.id)).toEqual([2]);
    expect(blocking("warning", found).map((f) => f.id)).toEqual([2, 3]);
  });
});
