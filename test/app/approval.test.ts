import { describe, expect, it } from "vitest";
import { initialProgress } from "../../src/report/progress-state.js";
import { renderProgress } from "../../src/report/render.js";
import { APPROVE_LINE_CHECKED, APPROVE_LINE_UNCHECKED } from "../../src/plan/approval.js";
import { issueCommentEdited } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { mockBotUser, mockInstallationToken, mockJobComments, mockPermission, REPO_PATH, startStack } from "./harness.js";

useNock();

const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });

/** A finished /plan comment as crewbot renders it, unticked and ticked. */
function planComment() {
  const state = {
    ...initialProgress("planjob0000000001", "plan" as const, { links: { transcript: "https://crewbot.example.com/jobs/planjob0000000001" } }),
    plan: { goal: "Fix it.", steps: [{ n: 1, text: "Add `a.txt`" }, { n: 2, text: "Add b.txt" }], done: [] },
    terminal: { kind: "done" as const },
    approvable: true,
  };
  const unticked = renderProgress(state);
  expect(unticked.endsWith(APPROVE_LINE_UNCHECKED)).toBe(true);
  return { unticked, ticked: unticked.slice(0, -APPROVE_LINE_UNCHECKED.length) + APPROVE_LINE_CHECKED };
}

describe("plan approval by ticking the box", () => {
  it("runs the worker alone on exactly the approved plan, says so on the plan, and opens the PR", async () => {
    const stack = await startStack([
      { content: [use("write", { path: "a.txt", content: "a\n" })] },
      { content: [{ type: "text", text: "[DONE:1]" }, use("write", { path: "b.txt", content: "b\n" })] },
      { text: "[DONE:2]\n## Completed\nBoth.\n## Files Changed\n- a.txt\n- b.txt\n## Notes\nNone." },
    ]);
    const { unticked, ticked } = planComment();
    const payload = issueCommentEdited(unticked, ticked);
    payload.repository.clone_url = stack.cloneUrl;
    payload.repository.default_branch = "main";
    mockInstallationToken();
    mockBotUser();
    mockPermission("Codertocat", "write"); // asked once: the job reuses the trigger's answer
    let approvedEdit = "";
    let pr: any;
    mockJobComments({ progressId: 88, edits: [], number: payload.issue.number })
      .patch(`${REPO_PATH}/issues/comments/${payload.comment.id}`, (b) => ((approvedEdit = b.body), true))
      .reply(200, {})
      .post(`${REPO_PATH}/pulls`, (b) => ((pr = b), true))
      .reply(201, { number: 3, html_url: "https://github.com/Codertocat/Hello-World/pull/3" });

    const ended = await stack.runToEnd("issue_comment", payload, "tick-1");
    expect(ended).toMatchObject({ kind: "implement", deliveryId: "approval:planjob0000000001" });

    expect(ended.outcome).toMatch(/^✅ Done/);
    expect(approvedEdit).toContain(APPROVE_LINE_CHECKED);
    expect(approvedEdit).toContain(`implementing it in job [${ended.id}]`);
    // No scout, no planner: the first request is the worker's, carrying the approved steps.
    expect(stack.fake.requests).toHaveLength(3);
    expect(JSON.stringify(stack.fake.requests[0]!.body.messages[0])).toContain("1. Add `a.txt`\\n2. Add b.txt");
    expect(stack.fake.requests[0]!.body.tools.map((t: { name: string }) => t.name)).toContain("write");
    const branch = pr.head as string;
    expect(gitSync(stack.remoteDir, "log", "--format=%s", branch, "^main").trim().split("\n")).toEqual(["Add b.txt", "Add `a.txt`"]);
    expect(pr.body).toMatch(/^Closes #1\n\n## Plan\n- \[x\] Add `a.txt`\n- \[x\] Add b.txt\n/);

    // The same tick delivered again (or un-tick and re-tick) makes no second job.
    await stack.probot.receive({ id: "tick-2", name: "issue_comment", payload } as never);
    expect(await stack.crewbot.queue.listRecent()).toHaveLength(1);
  });

  it("starts nothing when someone without write access ticks it", async () => {
    const stack = await startStack([], { runner: false });
    const { unticked, ticked } = planComment();
    mockInstallationToken();
    mockPermission("Codertocat", "read");
    await stack.probot.receive({ id: "tick-x", name: "issue_comment", payload: issueCommentEdited(unticked, ticked) } as never);
    await stack.crewbot.background.idle();
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);
  });

  it("starts nothing for any other edit, without a single request", async () => {
    const stack = await startStack([], { runner: false });
    const { unticked } = planComment();
    const stepTicked = unticked.replace("- [ ] Add b.txt", "- [x] Add b.txt");
    await stack.probot.receive({ id: "edit-x", name: "issue_comment", payload: issueCommentEdited(unticked, stepTicked) } as never);
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);
  });
});
