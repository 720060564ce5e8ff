/**
 * CREWBOT_EDIT_INTERVAL_S reaches a job's progress comment: a /plan whose agents make several slow
 * turns (1.5 s each) is edited as it goes, each progress edit at least the interval after the
 * comment's previous write — on the app's clock (the harness's fake one, so an hour between edits
 * passes at once) — and the final edit still comes last.
 */
import { expect, it } from "vitest";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { useNock } from "../helpers/github.js";
import { mockInstallationToken, mockJobComments, mockPermission, REPO_PATH, startStack } from "./harness.js";

useNock();

it.each(["0.05", "3600"])("CREWBOT_EDIT_INTERVAL_S=%s: progress edits follow it on the app's clock, the final edit comes last", async (seconds) => {
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
    const intervalMs = Number(seconds) * 1000;
    expect(stack.crewbot.services.operator.limits.editIntervalMs).toBe(intervalMs);
    const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockPermission("Codertocat", "admin");
    const edits: string[] = [];
    // When each write of the progress comment (its post, its edits) was sent, on the app's clock.
    const sentAt: number[] = [];
    const ofComment = (req: { method: string; path: string }) =>
      (req.method === "POST" && req.path === `${REPO_PATH}/issues/1/comments`) || (req.method === "PATCH" && req.path === `${REPO_PATH}/issues/comments/9001`);
    mockJobComments({ progressId: 9001, edits, trigger: { id: payload.comment.id }, conversation: [], extraEdits: 40 }).on("request", (req: { method: string; path: string }) => {
      if (ofComment(req)) sentAt.push(stack.clock.now());
    });
    const job = await stack.runToEnd("issue_comment", payload, `delivery-edit-interval-${seconds}`);
    expect(job.state).toBe("succeeded");
    expect(edits.at(-1)).toMatch(/^✅ Done · /);
    expect(edits.filter((b) => b.startsWith("⏳ Working")).length).toBeGreaterThanOrEqual(1);
    // The post, then the progress edits: each the interval or more after the write before it.
    const progress = sentAt.slice(0, -1);
    const gaps = progress.slice(1).map((at, i) => at - progress[i]!);
    expect(gaps.filter((gap) => gap < intervalMs)).toEqual([]);
  } finally {
    await stack.stop();
  }
});
