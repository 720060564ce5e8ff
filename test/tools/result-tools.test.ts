import { afterEach, describe, expect, it } from "vitest";
import { parseReview } from "../../src/review/parse-findings.js";
import { parsePlan } from "../../src/plan/parse-plan.js";
import { roleTools, type RoleName } from "../../src/agent/roles.js";
import { outputProblem } from "../../src/jobs/step-results.js";
import { planOf } from "../../src/plan/plan-result.js";
import { reviewOf } from "../../src/review/review-result.js";
import { completeStepTool } from "../../src/tools/complete-step.js";
import { toolsFor } from "../../src/tools/index.js";
import { validateInput } from "../../src/tools/schema.js";
import { renderPlanSubmission, submitPlanTool } from "../../src/tools/submit-plan.js";
import { submitReviewTool } from "../../src/tools/submit-review.js";
import { toolSpec } from "../../src/tools/schema.js";
import { ToolError, type SandboxInfo } from "../../src/tools/types.js";
import { closeAll, harness, readTool, toolContext, toolUse } from "../agent/harness.js";

afterEach(closeAll);

const ON: SandboxInfo = { available: true };
const names = (mode: "read-only" | "write", { role, ...opts }: { role?: RoleName; numberedPlan?: boolean; allow?: string[] } = {}) =>
  toolsFor(mode, { trust: "trusted", sandbox: ON, ...opts, roleTools: role ? roleTools(role) : [] }).tools.map((t) => t.name);

describe("which agent gets which result tool (DESIGN §4)", () => {
  it.each<[string, "read-only" | "write", { role?: RoleName; numberedPlan?: boolean; allow?: string[] }, string[]]>([
    ["the planner, read-only", "read-only", { role: "planner" }, ["submit_plan"]],
    ["the reviewer, read-only", "read-only", { role: "reviewer" }, ["submit_review"]],
    ["the scout", "read-only", { role: "scout" }, []],
    ["the worker with a numbered plan", "write", { role: "worker", numberedPlan: true }, ["complete_step"]],
    ["the worker without one", "write", { role: "worker" }, []],
    ["a planner that writes gets no submit_plan", "write", { role: "planner" }, []],
    ["frontmatter tools do not narrow them away", "read-only", { role: "reviewer", allow: ["read"] }, ["submit_review"]],
  ])("%s", (_name, mode, opts, expected) => {
    const offered = names(mode, opts);
    expect(offered.filter((n) => ["submit_plan", "submit_review", "complete_step"].includes(n))).toEqual(expected);
  });
});

const ctx = toolContext();

describe("submit_plan", () => {
  it("its markdown reads back as the same plan, steps on one line each", async () => {
    const input = { goal: "Fix the typo.", steps: ["Fix `commmit` in **README.md**", "Add a test\nfor it"], files: ["README.md"], risks: ["None really"] };
    const result = await submitPlanTool.run(input, ctx);
    expect(result.final?.tool).toBe("submit_plan");
    const fromText = parsePlan(result.final!.text);
    expect(fromText.steps).toEqual([
      { n: 1, text: "Fix `commmit` in README.md" },
      { n: 2, text: "Add a test for it" },
    ]);
    expect(planOf({ text: "", submission: result.final })).toEqual({ ...fromText, risks: "- None really" });
    expect(renderPlanSubmission({ goal: "g", steps: ["a"] })).toBe("## Goal\ng\n\n## Plan\n1. a\n\n## Risks\nNone.");
  });

  it("refuses an empty plan with a message naming the field", () => {
    const bad = validateInput(submitPlanTool, { goal: "x", steps: [] });
    expect(bad).toEqual({ ok: false, message: expect.stringMatching(/steps: give at least one step/) });
    expect(validateInput(submitPlanTool, { goal: " ", steps: ["a"] })).toMatchObject({ ok: false, message: expect.stringMatching(/goal/) });
  });
});

describe("submit_review", () => {
  it("keeps suggestions as data, turns backwards ranges round, and its markdown parses to the same findings", async () => {
    const input = {
      summary: "One bug.",
      findings: [
        { path: "./src/a.ts", line: 12, endLine: 10, severity: "critical" as const, body: "Off by one.\nSee the loop.", suggestion: "for (let i = 0; i < n; i++) {\n  use(i);\n}" },
        { path: "src/b.ts", line: 3, endLine: 3, severity: "suggestion" as const, body: "Name it." },
      ],
    };
    const result = await submitReviewTool.run(input, ctx);
    const review = reviewOf({ text: "", submission: result.final });
    expect(review.findings).toEqual([
      { path: "src/a.ts", line: 10, endLine: 12, severity: "critical", text: "Off by one.\nSee the loop.", suggestion: "for (let i = 0; i < n; i++) {\n  use(i);\n}" },
      { path: "src/b.ts", line: 3, severity: "suggestion", text: "Name it." },
    ]);
    const fromText = parseReview(result.final!.text);
    expect(fromText.findings.map((f) => ({ ...f, text: f.text.split("\n\n")[0] }))).toEqual(
      review.findings.map((f) => ({ ...f, text: f.text })),
    );
    expect(fromText.summary).toBe("One bug.");
  });

  it("no findings is a clean review, never a failure", async () => {
    const result = await submitReviewTool.run({ summary: "", findings: [] }, ctx);
    expect(outputProblem("reviewer", { text: result.final!.text, submission: result.final })).toBeUndefined();
    expect(reviewOf({ text: result.final!.text, submission: result.final }).findings).toEqual([]);
  });

  it("carries each finding's kind when given (a finding without one still counts), at most 60 characters", async () => {
    const input = { summary: "s", findings: [{ path: "a.ts", line: 1, severity: "warning" as const, body: "Raw SQL.", kind: " raw sql string " }, { path: "b.ts", line: 2, severity: "warning" as const, body: "x" }] };
    const parsed = validateInput(submitReviewTool, input);
    expect(parsed).toMatchObject({ ok: true });
    const result = await submitReviewTool.run((parsed as { value: typeof input }).value, ctx);
    expect(reviewOf({ text: "", submission: result.final }).findings.map((f) => f.kind)).toEqual(["raw sql string", undefined]);
    const long = validateInput(submitReviewTool, { summary: "s", findings: [{ path: "a.ts", line: 1, severity: "warning", body: "x", kind: "k".repeat(61) }] });
    expect(long).toMatchObject({ ok: false, message: expect.stringContaining("kind: at most 60 characters") });
  });

  it("carries why a finding cannot be proved (at most 300 characters), and tells the model a line outside the diff is fine", async () => {
    const input = { summary: "s", findings: [{ path: "package.json", line: 5, severity: "warning" as const, body: "Spread needs Node 8.3.", unprovable: " only Node 20 runs here " }] };
    const parsed = validateInput(submitReviewTool, input);
    expect(parsed).toMatchObject({ ok: true });
    const result = await submitReviewTool.run((parsed as { value: typeof input }).value, ctx);
    expect(reviewOf({ text: "", submission: result.final }).findings[0]).toMatchObject({ path: "package.json", unprovable: "only Node 20 runs here" });
    // The next step's {previous} text says it too.
    expect(result.final!.text).toContain("- package.json:5 - Spread needs Node 8.3.\n  (Not provable here: only Node 20 runs here)");
    const long = validateInput(submitReviewTool, { summary: "s", findings: [{ ...input.findings[0], unprovable: "u".repeat(301) }] });
    expect(long).toMatchObject({ ok: false, message: expect.stringContaining("unprovable: at most 300 characters") });
    const finding = ((toolSpec(submitReviewTool).input_schema.properties as any).findings.items.properties) as Record<string, { description: string }>;
    expect(finding.line!.description).toMatch(/may lie outside the diff.*posted in the review's body/);
  });

  it("refuses a finding without a line or with an unknown severity", () => {
    const bad = validateInput(submitReviewTool, { summary: "s", findings: [{ path: "a.ts", severity: "blocker", body: "x" }] });
    expect(bad).toMatchObject({ ok: false, message: expect.stringMatching(/findings\.0\.line.*findings\.0\.severity|findings\.0\.severity.*findings\.0\.line/) });
  });
});

describe("complete_step", () => {
  it("answers with the job's reply, and refuses when there is no numbered plan", async () => {
    const calls: Array<[number, string | undefined]> = [];
    const result = await completeStepTool.run({ step: 2, note: " flaky test skipped " }, { ...ctx, completeStep: async (n, note) => (calls.push([n, note]), `Step ${n} ticked`) });
    expect(result).toEqual({ output: "Step 2 ticked", isError: false });
    expect(calls).toEqual([[2, "flaky test skipped"]]);
    await expect(completeStepTool.run({ step: 1 }, ctx)).rejects.toBeInstanceOf(ToolError);
  });
});

describe("outputProblem: a non-empty output that yields nothing", () => {
  it.each<[string, string, boolean]>([
    ["planner", "I looked around and the fix seems simple: change the README.", true],
    ["planner", "## Implementation Plan\n1. Fix it", false],
    ["reviewer", "Looks fine to me overall, nice work.", true],
    ["reviewer", "## Summary\nLooks fine.", false],
    ["reviewer", "## Critical Issues\n- a.ts:1 - broken", false],
    ["scout", "anything", false],
  ])("%s: %j", (agent, text, fails) => {
    expect(outputProblem(agent, { text }) !== undefined).toBe(fails);
  });
});

describe("the agent loop and a result tool", () => {
  it("ends the agent at the call: text beside it and after it is ignored, no further request is made", async () => {
    const plan = { goal: "Fix it.", steps: ["Edit a.ts", "Run the tests"] };
    // One reply only: a second request would run out of script and fail the test at close.
    const h = await harness([{ content: [{ type: "text", text: "## Plan\n1. something else" }, toolUse("read", { path: "a.ts" }), toolUse("submit_plan", plan)] }], {
      tools: [readTool(), submitPlanTool],
    });
    const result = await h.run();
    expect(result.stopReason).toBe("done");
    expect(result.submission).toMatchObject({ tool: "submit_plan", value: plan });
    expect(result.text).toBe(renderPlanSubmission(plan));
    expect(h.fake.requests).toHaveLength(1);
  });

  it("an invalid submission goes back to the model as an error, and its corrected call ends the run", async () => {
    const h = await harness(
      [{ content: [toolUse("submit_review", { summary: "x", findings: [{ path: "a.ts", line: 0, severity: "critical", body: "b" }] })] }, { content: [toolUse("submit_review", { summary: "Clean.", findings: [] })] }],
      { tools: [submitReviewTool] },
    );
    const result = await h.run();
    expect(JSON.stringify(h.fake.requests[1]!.body.messages.at(-1))).toMatch(/is_error.*true|Invalid arguments for submit_review/);
    expect(result.submission?.tool).toBe("submit_review");
    expect(result.text).toBe("## Summary\nClean.");
  });
});
