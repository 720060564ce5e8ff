/** A real /plan job through the composed app: its events reach the transcript store, redacted. */
import nock from "nock";
import { describe, expect, it } from "vitest";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { useNock } from "../helpers/github.js";
import { ANTHROPIC_KEY, API, mockInstallationToken, mockPermission, mockRepoConfig, REPO_PATH, startStack, TOKEN, WEBHOOK_SECRET } from "../app/harness.js";

useNock();

describe("a job's transcript", () => {
  it("is recorded from the job's start to its end, with every secret redacted", async () => {
    const stack = await startStack([
      { content: [{ type: "tool_use", name: "bash", input: { command: `echo ${TOKEN} ${ANTHROPIC_KEY} ${WEBHOOK_SECRET}` } }] },
      { text: `Scout report: saw ${TOKEN}.` },
      { text: "## Plan\n1. Do it" },
    ]);
    const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockPermission("Codertocat", "admin");
    mockRepoConfig();
    nock(API)
      .post(`${REPO_PATH}/issues/comments/${payload.comment.id}/reactions`).reply(201, {})
      .post(`${REPO_PATH}/issues/1/comments`).reply(201, { id: 77 })
      .get(`${REPO_PATH}/issues/1/comments`).query(true).reply(200, [])
      .patch(`${REPO_PATH}/issues/comments/77`).times(10).optionally().reply(200, {});

    const job = await stack.runToEnd("issue_comment", payload, "transcript-1");
    expect(job.state).toBe("succeeded");
    const entries = await stack.crewbot.transcripts.store.read(job.id);
    const types = entries.map((e) => e.type);
    expect(types[0]).toBe("job_start");
    expect(types[types.length - 1]).toBe("job_end");
    expect(types).toEqual(expect.arrayContaining(["chain_start", "step_start", "turn_start", "tool_start", "tool_end", "text", "usage", "step_end"]));
    const text = JSON.stringify(entries);
    for (const secret of [TOKEN, ANTHROPIC_KEY, WEBHOOK_SECRET]) expect(text).not.toContain(secret);
    const bash = entries.find((e) => e.type === "tool_end");
    expect(bash).toMatchObject({ name: "bash", output: expect.stringContaining("[redacted] [redacted] [redacted]") });
    expect(entries.find((e) => e.type === "job_end")).toMatchObject({ terminal: "done", outcome: expect.stringMatching(/^✅ Done/) });
  });
});
