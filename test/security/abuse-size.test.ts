/**
 * Adversarial suite, resource abuse: oversized input. A 1 MB issue body is capped
 * before it is stored or read by the agents and the job still posts its result; a 500-step plan
 * keeps the progress comment under GitHub's 65,536 characters, with its ticks and approval working.
 */
import { describe, expect, it } from "vitest";
import { parsePlan } from "../../src/plan/parse-plan.js";
import { MAX_SUBJECT_CHARS } from "../../src/context/issue-context.js";
import { initialProgress } from "../../src/report/progress-state.js";
import { renderProgress } from "../../src/report/render.js";
import { APPROVE_LINE_CHECKED, APPROVE_LINE_UNCHECKED } from "../../src/plan/approval.js";
import { detectApproval } from "../../src/plan/approval.js";
import { issueCommentCreated, issueCommentEdited } from "../fixtures/payloads.js";
import { useNock } from "../helpers/github.js";
import { mockInstallationToken, mockJobComments, mockPermission, startStack } from "../app/harness.js";

useNock();

const GITHUB_LIMIT = 65_536;

describe("a 1 MB issue body", () => {
  it("is capped before it is stored and before the agents read it; the plan still posts", async () => {
    const stack = await startStack([{ text: "Scout: fine." }, { text: "## Plan\n1. Do the thing" }]);
    const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    payload.issue.body = `BODY-START ${"z".repeat(1024 * 1024)} BODY-END`;
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    mockJobComments({ progressId: 900, edits, trigger: { id: payload.comment.id } });

    const job = await stack.runToEnd("issue_comment", payload, "big-body");

    expect(job.state).toBe("succeeded");
    expect(job.subject!.body.length).toBeLessThanOrEqual(100_000);
    expect(edits.at(-1)).toMatch(/^✅ Done/);
    expect(edits.at(-1)).toContain("- [ ] Do the thing");
    const first = JSON.stringify(stack.fake.requests[0]!.body.messages[0]);
    expect(first.length).toBeLessThan(MAX_SUBJECT_CHARS + 20_000);
    expect(first).toContain("BODY-START");
    expect(first).toContain("BODY-END");
    expect(first).toContain("left out for length");
  });
});

const planText = (steps: number, width: number) =>
  `## Plan\n${Array.from({ length: steps }, (_, i) => `${i + 1}. Step ${i + 1}: change file${i + 1}.ts ${"w".repeat(width)}`).join("\n")}`;

function progress(steps: ReturnType<typeof parsePlan>["steps"], done: number[], approvable = false) {
  return renderProgress({
    ...initialProgress("bigplan000000001", approvable ? "plan" : "implement"),
    plan: { goal: "Many steps.", steps, done },
    terminal: approvable ? { kind: "done" } : undefined,
    approvable,
  });
}

const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;

describe("a plan with 500 steps", () => {
  it("is parsed in full, renders under the limit, and every tick shows", () => {
    const { steps } = parsePlan(planText(500, 40));
    expect(steps).toHaveLength(500);
    const evens = steps.filter((s) => s.n % 2 === 0).map((s) => s.n);
    const body = progress(steps, evens);
    expect(body.length).toBeLessThan(GITHUB_LIMIT);
    expect(count(body, /^- \[x\] /gm)).toBe(250);
    expect(count(body, /^- \[ \] /gm)).toBe(250);
    expect(body).toContain("- [x] Step 500: change file500.ts");
  });

  it("can be approved, and the approval carries all 500 steps", () => {
    const { steps } = parsePlan(planText(500, 40));
    const unticked = progress(steps, [], true);
    expect(unticked.length).toBeLessThan(GITHUB_LIMIT);
    expect(unticked.endsWith(APPROVE_LINE_UNCHECKED)).toBe(true);
    const ticked = unticked.slice(0, -APPROVE_LINE_UNCHECKED.length) + APPROVE_LINE_CHECKED;
    const approval = detectApproval(issueCommentEdited(unticked, ticked) as never, "crewbot");
    expect(approval.approved && approval.plan.length).toBe(500);
  });

  it("with long steps stays under the limit: first and last steps and their ticks stay visible", () => {
    const { steps } = parsePlan(planText(500, 400));
    const body = progress(steps, [1, 500]);
    expect(body.length).toBeLessThan(GITHUB_LIMIT);
    expect(body).toMatch(/^- \[x\] Step 1: /m);
    expect(body).toMatch(/^- \[x\] Step 500: /m);
    expect(body).toContain("characters cut here");
  });
});
