import { describe, expect, it } from "vitest";
import type { HeadSuite } from "../../src/context/check-failures.js";
import { CI_FIX_POLL_MS, headDecision, outlastedNote, suiteRunning, waitingLine } from "../../src/jobs/ci-fix-head.js";

const suite = (id: number, status: string, conclusion: string | null = null, runs = 1, app = "github-actions"): HeadSuite => ({ id, app, status, conclusion, runs });
const NOW = Date.UTC(2026, 11, 1, 20, 0);
const DEADLINE = NOW + 10 * 60_000;

describe("headDecision", () => {
  it.each<[string, HeadSuite[], number, ReturnType<typeof headDecision>]>([
    ["only the failed suite", [suite(1, "completed", "failure")], NOW, { kind: "fix", failed: [1], stillRunning: [] }],
    ["another suite still running: wait a poll", [suite(1, "completed", "failure"), suite(2, "in_progress")], NOW, { kind: "wait", runAt: NOW + CI_FIX_POLL_MS, running: [suite(2, "in_progress")] }],
    ["a queued suite with runs counts as running", [suite(1, "completed", "failure"), suite(2, "queued")], NOW, { kind: "wait", runAt: NOW + CI_FIX_POLL_MS, running: [suite(2, "queued")] }],
    ["an empty queued suite (an app that never runs) does not", [suite(1, "completed", "failure"), suite(2, "queued", null, 0, "idle")], NOW, { kind: "fix", failed: [1], stillRunning: [] }],
    ["the wait ends at the deadline, never later", [suite(1, "completed", "failure"), suite(2, "in_progress")], DEADLINE - 1_000, { kind: "wait", runAt: DEADLINE, running: [suite(2, "in_progress")] }],
    ["past the deadline: fix, naming what still runs", [suite(1, "completed", "failure"), suite(2, "in_progress")], DEADLINE, { kind: "fix", failed: [1], stillRunning: [suite(2, "in_progress")] }],
    ["every failed or timed-out suite, in GitHub's order", [suite(3, "completed", "timed_out"), suite(1, "completed", "failure"), suite(4, "completed", "success"), suite(5, "completed", "cancelled")], NOW, { kind: "fix", failed: [3, 1], stillRunning: [] }],
    ["the starting suite even when the listing lags", [suite(2, "completed", "failure")], NOW, { kind: "fix", failed: [2, 1], stillRunning: [] }],
    ["a wait of 0 minutes never waits", [suite(1, "completed", "failure"), suite(2, "in_progress")], NOW, { kind: "fix", failed: [1], stillRunning: [suite(2, "in_progress")] }],
  ])("%s", (what, suites, now, expected) => {
    expect(headDecision(suites, 1, now, what.startsWith("a wait of 0") ? NOW : DEADLINE)).toEqual(expected);
  });

  it("says what the round waits for, and what it stopped waiting for", () => {
    expect(suiteRunning(suite(1, "in_progress", null, 0))).toBe(false);
    expect(waitingLine([suite(2, "in_progress"), suite(3, "queued", null, 2, "circle`ci")], "abcdef1234", DEADLINE)).toBe("⏳ Waiting for 2 more check suites of abcdef1 (github-actions, circleci) to finish, until 20:10 UTC at most");
    expect(outlastedNote([], 10)).toBeUndefined();
    expect(outlastedNote([suite(2, "in_progress")], 1)).toBe("Not waited for: 1 check suite (github-actions) still running after 1 minute (`implement.ciFix.waitMinutes`); the next push runs them again");
  });
});
