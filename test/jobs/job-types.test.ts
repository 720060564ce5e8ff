import { describe, expect, it } from "vitest";
import { jobTypeOf, type JobType } from "../../src/jobs/job-types.js";
import type { JobRecord } from "../../src/queue/types.js";

type Shape = Pick<JobRecord, "kind" | "target" | "approvedPlan" | "review" | "fixFindings">;
const on = (isPullRequest: boolean) => ({ owner: "o", repo: "r", number: 1, isPullRequest, installationId: 1 }) as Shape["target"];
const steps = { planJobId: "p1", steps: [{ n: 1, text: "Do it" }] };
const FIX = { checkRunId: 7 } as unknown as NonNullable<Shape["fixFindings"]>;

describe("jobTypeOf", () => {
  it.each<[string, Shape, JobType]>([
    ["/plan on an issue", { kind: "plan", target: on(false) }, "plan"],
    ["/plan on a pull request", { kind: "plan", target: on(true) }, "plan"],
    ["/implement on an issue", { kind: "implement", target: on(false) }, "implement-issue"],
    ["a ticked approval box", { kind: "implement", target: on(false), approvedPlan: steps }, "implement-approved-plan"],
    ["/implement on a pull request", { kind: "implement", target: on(true) }, "implement-pr-feedback"],
    ["a click on Fix these findings", { kind: "implement", target: on(true), fixFindings: FIX }, "implement-fix-findings"],
    ["/review", { kind: "review", target: on(true), review: { event: "command" } as Shape["review"] }, "review"],
    ["an automatic review", { kind: "review", target: on(true), review: { event: "synchronize", automatic: true } as Shape["review"] }, "review"],
    ["a reply in crewbot's review thread", { kind: "review", target: on(true), review: { event: "thread-reply" } as Shape["review"] }, "review-thread-answer"],
    ["a failed check suite", { kind: "ci-fix", target: on(true) }, "ci-fix"],
  ])("%s", (_, job, type) => {
    expect(jobTypeOf(job)).toBe(type);
  });
});
