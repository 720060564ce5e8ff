/**
 * CREWBOT_EDIT_INTERVAL_S reaches a job's progress comment: a /plan whose agents make several slow
 * turns (1.5 s each) is edited as it goes with a short interval, and with an hour between edits
 * only its final edit is made — which the interval never holds back.
 */
import { expect, it } from "vitest";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { useNock } from "../helpers/github.js";
import { mockInstallationToken, mockJobComments, mockPermission, startStack } from "./harness.js";

useNock();

it.each([
  ["0.05", (n: number) => expect(n).toBeGreaterThanOrEqual(1)],
  ["3600", (n: number) => expect(n).toBe(0)],
])("CREWBOT_EDIT_INTERVAL_S=%s: progress edits follow it, the final edit is made at once", async (seconds, expectProgressEdits) => {
  const stack = await startStack(
    [
      { content: [{ type: "tool_use", name: "read", input: { path: "README.md" } }], delay: 1500 },
      { content: [{ type: "tool_use", name: "ls", input: {} }], delay: 1500 },
      { text: "Scout report: one README.", delay: 1500 },
      { text: "## Plan\n1. Fix the README", delay: 1500 },
    ],
    { env: { CREWBOT_EDIT_INTERVAL_S: seconds } },
  );
  try {
    expect(stack.crewbot.services.operator.limits.editIntervalMs).toBe(Number(seconds) * 1000);
    const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockPermission("Codertocat", "admin");
    const edits: string[] = [];
    // With an hour between edits, any edit but the final one fails the test.
    mockJobComments({ progressId: 9001, edits, trigger: { id: payload.comment.id }, conversation: [], extraEdits: seconds === "3600" ? 0 : 10 });
    const job = await stack.runToEnd("issue_comment", payload, `delivery-edit-interval-${seconds}`);
    expect(job.state).toBe("succeeded");
    expect(edits.at(-1)).toMatch(/^✅ Done · /);
    expectProgressEdits(edits.filter((b) => b.startsWith("⏳ Working")).length);
  } finally {
    await stack.stop();
  }
});
