/**
 * CREWBOT_EDIT_INTERVAL_S reaches a job's progress comment: a /plan whose agents make several slow
 * turns (1.5 s each) is edited as it goes with a short interval, and with an hour between edits
 * only its final edit is made — which the interval never holds back.
 */
import nock from "nock";
import { expect, it } from "vitest";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { useNock } from "../helpers/github.js";
import { API, mockInstallationToken, mockPermission, mockRepoConfig, REPO_PATH, startStack } from "./harness.js";

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
    expect(stack.crewbot.services.limits.editIntervalMs).toBe(Number(seconds) * 1000);
    const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockPermission("Codertocat", "admin");
    mockRepoConfig();
    const edits: string[] = [];
    nock(API)
      .post(`${REPO_PATH}/issues/comments/${payload.comment.id}/reactions`)
      .reply(201, { id: 1, content: "eyes" })
      .post(`${REPO_PATH}/issues/1/comments`)
      .reply(201, { id: 9001 })
      .get(`${REPO_PATH}/issues/1/comments`)
      .query(true)
      .reply(200, [])
      .patch(`${REPO_PATH}/issues/comments/9001`, (b) => (edits.push(b.body), true))
      .reply(200, { id: 9001 });
    if (seconds !== "3600") {
      nock(API)
        .patch(`${REPO_PATH}/issues/comments/9001`, (b) => (edits.push(b.body), true))
        .optionally()
        .times(10)
        .reply(200, { id: 9001 });
    }
    const job = await stack.runToEnd("issue_comment", payload, `delivery-edit-interval-${seconds}`);
    expect(job.state).toBe("succeeded");
    expect(edits.at(-1)).toMatch(/^✅ Done · /);
    expectProgressEdits(edits.filter((b) => b.startsWith("⏳ Working")).length);
  } finally {
    await stack.stop();
  }
});
