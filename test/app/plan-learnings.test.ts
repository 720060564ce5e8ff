/**
 * The merged learnings reach the planner — of `/plan` and of `/implement`'s chain — as the
 * repository's learnings, numbered by id; the scout and the worker do not get them.
 */
import { describe, expect, it } from "vitest";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { useNock } from "../helpers/github.js";
import { mockBotUser, mockInstallationToken, mockJobComments, mockPermission, REPO_PATH, startStack } from "./harness.js";

useNock();

const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });
const MERGED = "- In `src/db/**`, raw SQL strings are intended: don't flag them <!-- crewbot:learning:0a1b2c3d -->\n";
const SOURCE = ".github/crewbot/learnings.md (default branch): the repository's learnings, instructions of the team merged by people";
const LINE = "[L:0a1b2c3d] In `src/db/**`, raw SQL strings are intended: don't flag them";

/** The first user message of each model request, in order. */
const firstMessages = (requests: Array<{ body: Record<string, any> }>) =>
  requests.map((r) => {
    const content: unknown = r.body.messages[0].content;
    return typeof content === "string" ? content : (content as Array<{ text?: string }>).map((b) => b.text ?? "").join("");
  });
const hasLearnings = (text: string) => text.includes(`<document source="${SOURCE}">`) && text.includes(LINE);

describe("merged learnings for the planner", () => {
  it("/plan: the planner's request holds them, the scout's does not", async () => {
    const stack = await startStack([{ text: "Scout: README.md line 1." }, { content: [use("submit_plan", { goal: "Fix it.", steps: ["Fix the typo"] })] }], {
      files: { "README.md": "# Hello commmit\n", ".github/crewbot/learnings.md": MERGED },
    });
    const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    mockJobComments({ progressId: 70, edits: [], trigger: { id: payload.comment.id } });

    const job = await stack.runToEnd("issue_comment", payload, "plan-learnings");

    expect(job.outcome).toMatch(/^✅ Done/);
    expect(firstMessages(stack.fake.requests).map(hasLearnings)).toEqual([false, true]);
  });

  it("/implement: the chain's planner gets them, the worker does not", async () => {
    const stack = await startStack(
      [
        { text: "Scout report." },
        { content: [use("submit_plan", { goal: "Add a file.", steps: ["Write A"] })] },
        { content: [use("write", { path: "A.txt", content: "a\n" }), use("complete_step", { step: 1 })] },
        { text: "## Completed\nA.\n## Files Changed\n- A.txt\n## Notes\nNone." },
      ],
      { files: { "README.md": "# Hello\n", ".github/crewbot/learnings.md": MERGED } },
    );
    const payload = issueCommentCreated("/implement", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockBotUser();
    mockPermission("Codertocat", "write");
    mockJobComments({ progressId: 71, edits: [], trigger: { id: payload.comment.id } })
      .post(`${REPO_PATH}/pulls`)
      .reply(201, { number: 12, html_url: "https://github.com/Codertocat/Hello-World/pull/12" });

    const job = await stack.runToEnd("issue_comment", payload, "implement-learnings");

    expect(job.outcome).toMatch(/^✅ Done/);
    // scout, planner, worker (twice: the same first message)
    expect(firstMessages(stack.fake.requests).map(hasLearnings)).toEqual([false, true, false, false]);
  });
});
