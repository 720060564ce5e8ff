/**
 * An overloaded model, end to end: a /plan whose model answers 529 three times (more than the
 * SDK's own two retries would cover) waits, says so in the progress comment, and ends ✅; one
 * whose model stays overloaded beyond CREWBOT_MODEL_RETRY_MINUTES ends ❌ naming the provider error;
 * one whose prompt the API finds too long compacts its context and goes on to the plan.
 */
import { Writable } from "node:stream";
import pino from "pino";
import { expect, it } from "vitest";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { promptTooLong } from "../helpers/fake-anthropic.js";
import { useNock } from "../helpers/github.js";
import { mockInstallationToken, mockJobComments, mockPermission, startStack } from "./harness.js";

useNock();

const overloaded = (retryAfterMs: number) => ({ error: { status: 529, message: "Overloaded", headers: { "retry-after-ms": String(retryAfterMs) } } });

function mockPlanJob(payload: ReturnType<typeof issueCommentCreated>, edits: string[]) {
  mockInstallationToken();
  mockPermission("Codertocat", "admin");
  mockJobComments({ progressId: 9001, edits, trigger: { id: payload.comment.id }, conversation: [], extraEdits: 10 });
}

it("waits out a model that answers 529 three times and breaks off a reply, says it is waiting, and ends ✅", async () => {
  // The last wait is long enough for an edit between GitHub's spaced writes.
  const stack = await startStack(
    [
      overloaded(50),
      overloaded(50),
      overloaded(2500),
      { text: "Scout report: one README." },
      // The planner's first reply breaks off after two of its three text deltas: dropped, asked again.
      { text: "## Plan\n1. Fix the README", streamError: { type: "overloaded_error", message: "Overloaded", afterEvents: 4 } },
      { text: "## Plan\n1. Fix the README" },
    ],
    { env: { CREWBOT_EDIT_INTERVAL_S: "0.05" } },
  );
  try {
    const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    const edits: string[] = [];
    mockPlanJob(payload, edits);
    const job = await stack.runToEnd("issue_comment", payload, "delivery-overload-1");

    expect(job.state).toBe("succeeded");
    expect(edits.at(-1)).toMatch(/^✅ Done · /);
    expect(edits.at(-1)).toContain("## Plan\n- [ ] Fix the README");
    const waiting = edits.filter((b) => b.startsWith("⏳ Waiting for the model · scout"));
    expect(waiting.length).toBeGreaterThanOrEqual(1);
    // Which retries an edit catches depends on the machine's pace; the long last wait is always seen.
    expect(waiting.every((b) => /Waiting for the model: `529 overloaded_error: Overloaded`; try [2-4] in \d+s/.test(b))).toBe(true);
    expect(waiting.some((b) => b.includes("Waiting for the model: `529 overloaded_error: Overloaded`; try 4 in "))).toBe(true);
    expect(edits.at(-1)!.split("Fix the README")).toHaveLength(2); // once: the dropped part is not repeated
    expect(stack.fake.requests).toHaveLength(6);
  } finally {
    await stack.stop();
  }
});

it("gives up after CREWBOT_MODEL_RETRY_MINUTES and ends ❌ with the provider error", async () => {
  const stack = await startStack(() => overloaded(400), { env: { CREWBOT_EDIT_INTERVAL_S: "3600", CREWBOT_MODEL_RETRY_MINUTES: "0.02" } });
  try {
    const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    const edits: string[] = [];
    mockPlanJob(payload, edits);
    const job = await stack.runToEnd("issue_comment", payload, "delivery-overload-2");

    expect(job.state).toBe("failed");
    expect(edits.at(-1)).toMatch(
      /^❌ Failed: step 1 \(scout\): provider error: 529 Overloaded \(still failing after \d+ attempts over 1 s; CREWBOT_MODEL_RETRY_MINUTES is 1 s\) · /,
    );
    expect(stack.fake.requests.length).toBeGreaterThanOrEqual(3);
  } finally {
    await stack.stop();
  }
});

it("compacts the context when the API says the prompt is too long, and goes on to the plan", async () => {
  const turns = [
    { content: [{ type: "tool_use" as const, name: "read", input: { path: "README.md" } }] },
    { content: [{ type: "tool_use" as const, name: "ls", input: {} }] },
    { content: [{ type: "tool_use" as const, name: "grep", input: { pattern: "Hello" } }] },
    promptTooLong(30_000, 25_000),
    { text: "Scout report: one README." },
    { text: "## Plan\n1. Fix the README" },
  ];
  // The summary request is the one without tools.
  const stack = await startStack((request) => (request.body.tools ? turns.shift() : { text: "Summary: README.md read, nothing else found." }));
  try {
    const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    const edits: string[] = [];
    mockPlanJob(payload, edits);
    const job = await stack.runToEnd("issue_comment", payload, "delivery-too-long");

    expect(job.state).toBe("succeeded");
    expect(edits.at(-1)).toMatch(/^✅ Done · /);
    expect(edits.at(-1)).toContain("## Plan\n- [ ] Fix the README");
    const summaries = stack.fake.requests.filter((r) => !r.body.tools);
    expect(summaries).toHaveLength(1);
    // The request after the refusal carries the summary instead of the turns it replaced.
    const retried = stack.fake.requests[stack.fake.requests.indexOf(summaries[0]!) + 1]!.body;
    expect(JSON.stringify(retried.messages)).toContain("Summary: README.md read, nothing else found.");
  } finally {
    await stack.stop();
  }
});

it("at start, asks the endpoint for its model list and says when it has none, without failing", async () => {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) });
  const stack = await startStack([], { runner: false, log: pino({ level: "info" }, sink) });
  try {
    const told = () => lines.find((l) => l.includes("configured models not checked"));
    for (let i = 0; i < 100 && !told(); i++) await new Promise((r) => setTimeout(r, 50));
    // The fake, like some compatible endpoints, has no GET /v1/models.
    expect(told()).toMatch(/the model endpoint gave no model list \(404 .*\); configured models not checked/);
  } finally {
    await stack.stop();
  }
});
