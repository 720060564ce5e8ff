/** The queue's state machine, one table both backends use: what it allows, and the Redis scripts holding no copy of it. */
import { describe, expect, it } from "vitest";
import { mayBecomeSql, recoveryOf, sourcesOf, transitionArgs, TRANSITIONS } from "../../src/store/job-transitions.js";
import { SCRIPTS, scriptSource, type ScriptName } from "../../src/store/redis/job-scripts.js";

describe("the job state machine", () => {
  it("never moves an ended job, and reaches an end from queued or running", () => {
    for (const end of ["succeeded", "failed", "cancelled"] as const) {
      expect(TRANSITIONS[end]).toEqual([]);
      expect(sourcesOf(end)).toEqual(["queued", "running"]);
    }
    expect(sourcesOf("running")).toEqual(["queued"]);
    expect(sourcesOf("queued")).toEqual(["running"]);
    expect(mayBecomeSql("failed")).toBe("state IN ('queued', 'running')");
  });

  it("requeues a stale job only before its agents started and its second attempt; a pending ending wins", () => {
    expect(recoveryOf({ agentsStarted: false, attempts: 1 }, false)).toBe("requeue");
    expect(recoveryOf({ agentsStarted: false, attempts: 2 }, false)).toBe("interrupt");
    expect(recoveryOf({ agentsStarted: true, attempts: 1 }, false)).toBe("interrupt");
    expect(recoveryOf({ agentsStarted: false, attempts: 1 }, true)).toBe("ending");
  });

  it("reaches the Redis scripts as arguments: their source names no transition and no bound", () => {
    const [pairs, bound] = transitionArgs();
    expect(pairs.split(",")).toContain("running>queued");
    expect(bound).toBe("2");
    for (const name of Object.keys(SCRIPTS) as ScriptName[]) {
      const lua = scriptSource(name);
      expect(lua).not.toMatch(/st ~= 'queued' and st ~= 'running'|tonumber\(at\) < 2/);
    }
  });
});
