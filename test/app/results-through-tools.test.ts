/**
 * A real model's ways, end to end: results handed over through submit_plan / submit_review /
 * complete_step, and the text forms it writes instead (its own headings, markers only at the
 * end, prose with no plan). Asserted on what reaches GitHub: the posted plan, the review's
 * inline comments and check run, and the commits of each step on the pushed branch.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import nock from "nock";
import { describe, expect, it } from "vitest";
import { issueCommentCreated, pullRequestEvent } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { githubReviewProblems } from "../helpers/github-review-check.js";
import { API, mockBotUser, mockInstallationToken, mockJobComments, mockPermission, mockPullConversation, mockRepoConfig, REPO_PATH, startStack, type Stack } from "./harness.js";

useNock();

const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });
const BRANCH = "crewbot/issue-1-spelling-error-in-the-readme-file";

/** /plan with GitHub's side mocked: 👀, the progress comment and its edits; the last edit is the final comment. */
async function runPlan(stack: Stack, id: string) {
  const edits: string[] = [];
  const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
  mockInstallationToken();
  mockPermission("Codertocat", "write");
  mockJobComments({ progressId: 60, edits, trigger: { id: payload.comment.id } });
  const job = await stack.runToEnd("issue_comment", payload, id);
  return { job, final: edits.at(-1)! };
}

describe("/plan with a real model's plan", () => {
  it("a planner that writes `## Implementation Plan` gets its plan posted as the task list", async () => {
    const stack = await startStack([
      { text: "Scout: README.md line 1." },
      { text: "I had a look.\n\n## Implementation Plan\n1. Fix `commmit` in **README.md**\n2. Add a test\n\n## Potential Risks\nNone." },
    ]);
    const { job, final } = await runPlan(stack, "plan-heading");
    expect(job.outcome).toMatch(/^✅ Done/);
    expect(final).toContain("- [ ] Fix `commmit` in README.md\n- [ ] Add a test");
    expect(final).toContain("- [ ] Approve this plan and implement it");
  });

  it("a planner that calls submit_plan gets exactly that plan posted; its text beside the call is ignored", async () => {
    const stack = await startStack([
      { text: "Scout report." },
      { content: [{ type: "text", text: "## Plan\n1. not this one" }, use("submit_plan", { goal: "Fix the typo.", steps: ["Fix the README", "Add a changelog entry"], files: ["README.md"], risks: [] })] },
    ]);
    const { job, final } = await runPlan(stack, "plan-tool");
    expect(job.outcome).toMatch(/^✅ Done/);
    expect(final).toContain("Fix the typo.");
    expect(final).toContain("- [ ] Fix the README\n- [ ] Add a changelog entry");
    expect(final).not.toContain("not this one");
    expect(stack.fake.requests).toHaveLength(2); // the call ended the planner: no further model request
  });

  it("prose with no plan ends ❌ Failed with the reason, and the prose is in the transcript", async () => {
    const prose = "The README has a typo on line 1; fixing it is a one-word change and nothing else needs to move.";
    const stack = await startStack([{ text: "Scout report." }, { text: prose }]);
    const { job, final } = await runPlan(stack, "plan-prose");
    expect(job.outcome).toMatch(/^❌ Failed: step 2 \(planner\): the planner gave no plan: it did not call submit_plan/);
    expect(final).toMatch(/^❌ Failed: step 2 \(planner\): the planner gave no plan/);
    expect(final).not.toContain("Approve this plan");
    const transcript = JSON.stringify(await stack.crewbot.transcripts.store.read(job.id));
    expect(transcript).toContain(prose);
  });
});

describe("which budget stopped a job", () => {
  it("an agent's own turn cap is named as such in the final comment, not as the job's turn budget", async () => {
    const scout = "---\nname: scout\ndescription: A scout with one turn.\nmaxTurns: 1\n---\nExplore.\n";
    const stack = await startStack([{ content: [use("read", { path: "README.md" })] }], { files: { "README.md": "# Hello\n", ".github/crewbot/agents/scout.md": scout } });
    const { job, final } = await runPlan(stack, "plan-agent-cap");
    expect(job.outcome).toMatch(/^⏸ Stopped: turn limit of the scout reached \(1 turn, its own maxTurns\)/);
    expect(final).toMatch(/^⏸ Stopped: turn limit of the scout reached \(1 turn, its own maxTurns\)/);
  });
});

/** GitHub's side of /implement up to the draft PR. */
function mockImplementJob(stack: Stack, edits: string[], payload: ReturnType<typeof issueCommentCreated>, pr: { body?: any }) {
  mockInstallationToken();
  mockBotUser();
  mockPermission("Codertocat", "write");
  mockJobComments({ progressId: 61, edits, trigger: { id: payload.comment.id } })
    .post(`${REPO_PATH}/pulls`, (b) => ((pr.body = b), true))
    .reply(201, { number: 12, html_url: "https://github.com/Codertocat/Hello-World/pull/12" });
}

const filesOf = (stack: Stack, rev: string) => gitSync(stack.remoteDir, "show", "--name-only", "--format=", rev).trim().split("\n").filter(Boolean).sort();

describe("/implement with complete_step", () => {
  it("commits each step when complete_step is called: the first step's commit holds file A and not file B", async () => {
    const stack = await startStack(
      [
        { text: "Scout report." },
        { content: [use("submit_plan", { goal: "Add two files.", steps: ["Write A", "Write B"] })] },
        { content: [use("write", { path: "A.txt", content: "a\n" }), use("complete_step", { step: 1 })] },
        { content: [use("write", { path: "B.txt", content: "b\n" })] },
        { content: [use("complete_step", { step: 2, note: "B is empty but for one line" })] },
        { text: "## Completed\nBoth.\n## Files Changed\n- A.txt\n- B.txt\n## Notes\nNone." },
      ],
      { files: { "README.md": "# Hello commmit\n" } },
    );
    const payload = issueCommentCreated("/implement", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    const edits: string[] = [];
    const pr: { body?: any } = {};
    mockImplementJob(stack, edits, payload, pr);

    const job = await stack.runToEnd("issue_comment", payload, "implement-complete-step");

    expect(job.outcome).toMatch(/^✅ Done/);
    const subjects = gitSync(stack.remoteDir, "log", "--format=%s", BRANCH, "^main").trim().split("\n");
    expect(subjects).toEqual(["Write B", "Write A"]);
    expect(filesOf(stack, `${BRANCH}~1`)).toEqual(["A.txt"]);
    expect(filesOf(stack, BRANCH)).toEqual(["B.txt"]);
    // The commit was made before the tool's answer went back to the model, and the answer says so.
    const answer = JSON.stringify(stack.fake.requests[3]!.body.messages.at(-1));
    expect(answer).toMatch(/Step 1 ticked and committed \([0-9a-f]{7}\)\. Steps left: 2\./);
    const final = edits.at(-1)!;
    expect(final).toMatch(/- \[x\] Write A ✅ \[[0-9a-f]{7}\]/);
    expect(final).toMatch(/- \[x\] Write B ✅ \[[0-9a-f]{7}\]/);
    expect(final).toContain("Step 2: B is empty but for one line");
    expect(pr.body.body).toContain("- [x] Write A\n- [x] Write B");
  });

  it("markers only in the final text still tick the steps; their changes share one commit and the notes say why", async () => {
    const stack = await startStack(
      [
        { text: "Scout report." },
        { text: "## Plan\n1. Write A\n2. Write B" },
        { content: [use("write", { path: "A.txt", content: "a\n" })] },
        { content: [use("write", { path: "B.txt", content: "b\n" })] },
        { text: "All done.\n\n[DONE:1]\n[DONE:2]\n\n## Completed\nBoth.\n## Files Changed\n- A.txt\n- B.txt\n## Notes\nNone." },
      ],
      { files: { "README.md": "# Hello commmit\n" } },
    );
    const payload = issueCommentCreated("/implement", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    const edits: string[] = [];
    const pr: { body?: any } = {};
    mockImplementJob(stack, edits, payload, pr);

    const job = await stack.runToEnd("issue_comment", payload, "implement-markers-at-end");

    expect(job.outcome).toMatch(/^✅ Done/);
    // Not everything in step 1 with an empty step 2: one commit that names both steps.
    expect(gitSync(stack.remoteDir, "log", "--format=%s", BRANCH, "^main").trim().split("\n")).toEqual(["Steps 1, 2: Write A; Write B"]);
    expect(filesOf(stack, BRANCH)).toEqual(["A.txt", "B.txt"]);
    const final = edits.at(-1)!;
    const sha = /- \[x\] Write A ✅ \[([0-9a-f]{7})\]/.exec(final)?.[1];
    expect(sha).toBeDefined();
    expect(final).toMatch(new RegExp(`- \\[x\\] Write B ✅ \\[${sha}\\]`));
    expect(final).toMatch(/Steps 1, 2 were reported finished together .*the step commits could not be separated/);
  });
});

describe("implement-and-review hand-offs", () => {
  it("the reviewer gets the checks' results; what the checks leave is not committed; the fix-up worker has no steps to complete", async () => {
    const stack = await startStack(
      [
        { text: "Scout report." },
        { content: [use("submit_plan", { goal: "Add A.", steps: ["Write A"] })] },
        { content: [use("write", { path: "A.txt", content: "a\n" }), use("complete_step", { step: 1 })] },
        { text: "## Completed\nA.\n## Files Changed\n- A.txt\n## Notes\nNone." },
        { content: [use("submit_review", { summary: "Fine.", findings: [] })] },
        { text: "## Completed\nNothing to fix.\n## Files Changed\nNone.\n## Notes\nNone." },
      ],
      { files: { "README.md": "# Hello commmit\n" } },
    );
    const payload = issueCommentCreated("/implement", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    const edits: string[] = [];
    mockInstallationToken();
    mockBotUser();
    mockPermission("Codertocat", "write");
    const config = 'implement:\n  chain: implement-and-review\n  check: ["echo built > build.out && echo stamp >> README.md && echo checks-ran"]\n';
    mockJobComments({ progressId: 62, edits, trigger: { id: payload.comment.id }, config: { repo: config } })
      .post(`${REPO_PATH}/pulls`)
      .reply(201, { number: 12, html_url: "https://github.com/Codertocat/Hello-World/pull/12" });

    const job = await stack.runToEnd("issue_comment", payload, "implement-and-review-handoffs");

    expect(job.outcome).toMatch(/^✅ Done/);
    const reviewer = stack.fake.requests[4]!.body.messages[0].content[0].text as string;
    expect(reviewer).toMatch(/passed: echo built > build\.out && echo stamp >> README\.md && echo checks-ran \(exit code 0\)\nchecks-ran/);
    expect(reviewer).toContain("## Plan\n1. Write A");
    expect(gitSync(stack.remoteDir, "log", "--format=%s", BRANCH, "^main").trim().split("\n")).toEqual(["Write A"]);
    expect(gitSync(stack.remoteDir, "ls-tree", "-r", "--name-only", BRANCH).trim().split("\n")).toEqual(["A.txt", "README.md"]);
    expect(gitSync(stack.remoteDir, "show", `${BRANCH}:README.md`)).toBe("# Hello commmit\n");
    const toolsOf = (i: number) => (stack.fake.requests[i]!.body.tools as Array<{ name: string }>).map((t) => t.name);
    expect(toolsOf(2)).toContain("complete_step");
    expect(toolsOf(5)).not.toContain("complete_step");
    expect(toolsOf(4)).toContain("submit_review");
  });
});

/** Commits `files` on the remote's `feature` branch and points PR #1 at it. */
async function pushFeature(stack: Stack, files: Record<string, string>): Promise<string> {
  const dir = stack.remoteDir;
  gitSync(dir, "checkout", "-q", "-b", "feature");
  for (const [name, content] of Object.entries(files)) await writeFile(path.join(dir, name), content);
  gitSync(dir, "add", "-A");
  gitSync(dir, "commit", "-q", "-m", "feature");
  const sha = gitSync(dir, "rev-parse", "HEAD").trim();
  gitSync(dir, "update-ref", "refs/pull/1/head", sha);
  gitSync(dir, "checkout", "-q", "main");
  return sha;
}

/** GitHub's side of one automatic review: the check run, the context, and (unless `review: false`) the review, checked against the real diff. */
function mockAutomaticReview(stack: Stack, t: { reviews: any[]; checks: any[] }, o: { checkId?: number; review?: boolean } = {}) {
  const { checkId = 640, review = true } = o;
  mockInstallationToken();
  // Read twice: by the trigger (review.auto: whether a job is queued), then by the job.
  mockRepoConfig();
  mockRepoConfig();
  mockPermission("Codertocat", "write");
  mockPullConversation();
  const scope = nock(API)
    .post(`${REPO_PATH}/check-runs`, (b) => (t.checks.push(b), true))
    .reply(201, { id: checkId })
    .get(`${REPO_PATH}/issues/1/comments`)
    .query(true)
    .reply(200, [])
    .patch(`${REPO_PATH}/check-runs/${checkId}`, (b) => (t.checks.push(b), true))
    .reply(200, {});
  if (!review) return;
  const diff = gitSync(stack.remoteDir, "diff", "-M", "main...feature");
  scope
    .post(`${REPO_PATH}/pulls/1/reviews`, (b) => (t.reviews.push(b), githubReviewProblems(diff, b).length === 0))
    .reply(200, { id: 901, html_url: "https://github.com/Codertocat/Hello-World/pull/1#pullrequestreview-901" });
}

const CODE = Array.from({ length: 12 }, (_, i) => `const v${i + 1} = ${i + 1};`).join("\n") + "\n";

describe("reviews by a real model", () => {
  it("a reviewer that writes `## Critical Issues` and `## Nitpicks` gets inline comments, and the check run is not a success", async () => {
    const stack = await startStack([
      { text: "## Critical Issues\n- calc.js:3 - `v3` is now a string; sums break.\n\n## Nitpicks\n- calc.js:5 - name it better.\n\n## Summary\nOne bug." },
    ], { files: { "calc.js": CODE } });
    const sha = await pushFeature(stack, { "calc.js": CODE.replace("const v3 = 3;", 'const v3 = "3";').replace("const v5 = 5;", "const v5 = 50;") });
    const t = { reviews: [] as any[], checks: [] as any[] };
    mockAutomaticReview(stack, t);

    const job = await stack.runToEnd("pull_request", pullRequestEvent("opened", { headSha: sha, cloneUrl: stack.cloneUrl }), "review-critical-issues");

    expect(job.state).toBe("succeeded");
    expect(t.reviews).toHaveLength(1);
    expect(t.reviews[0].comments.map((c: any) => [c.path, c.line, c.body.split(" — ")[0]])).toEqual([
      ["calc.js", 3, "**Critical**"],
      ["calc.js", 5, "**Suggestion**"],
    ]);
    expect(t.checks.at(-1)).toMatchObject({ status: "completed" });
    expect(t.checks.at(-1).conclusion).not.toBe("success");
  });

  it("a reviewer that calls submit_review gets its findings posted inline, its suggestion as a committable block", async () => {
    const stack = await startStack([
      {
        content: [
          { type: "text", text: "## Summary\nignored" },
          use("submit_review", {
            summary: "One bug.",
            findings: [{ path: "calc.js", line: 3, severity: "warning", body: "`v3` became a string.", suggestion: "const v3 = 3;" }],
          }),
        ],
      },
    ], { files: { "calc.js": CODE } });
    const sha = await pushFeature(stack, { "calc.js": CODE.replace("const v3 = 3;", 'const v3 = "3";') });
    const t = { reviews: [] as any[], checks: [] as any[] };
    mockAutomaticReview(stack, t);

    const job = await stack.runToEnd("pull_request", pullRequestEvent("opened", { headSha: sha, cloneUrl: stack.cloneUrl }), "review-submit");

    expect(job.state).toBe("succeeded");
    expect(stack.fake.requests).toHaveLength(1);
    expect(t.reviews[0].comments).toHaveLength(1);
    expect(t.reviews[0].comments[0]).toMatchObject({ path: "calc.js", line: 3, side: "RIGHT" });
    expect(t.reviews[0].comments[0].body).toMatch(/^\*\*Warning\*\* — `v3` became a string\.\n\n```suggestion\nconst v3 = 3;\n```\n\n_unverified: no reproducer\._\n\n<!-- crewbot:finding:[0-9a-f]{16} -->$/);
    expect(t.reviews[0].body).toContain("One bug.");
    expect(t.checks.at(-1).conclusion).not.toBe("success");
  });

  it("a reviewer that submits no findings gave a clean review: no review posted, the check run succeeds", async () => {
    const stack = await startStack([{ content: [use("submit_review", { summary: "Looks right.", findings: [] })] }], { files: { "calc.js": CODE } });
    const sha = await pushFeature(stack, { "calc.js": CODE.replace("const v3 = 3;", "const v3 = 4;") });
    const t = { reviews: [] as any[], checks: [] as any[] };
    mockAutomaticReview(stack, t, { checkId: 641, review: false });

    const job = await stack.runToEnd("pull_request", pullRequestEvent("opened", { headSha: sha, cloneUrl: stack.cloneUrl }), "review-clean-submit");

    expect(job.outcome).toBe("✅ Done · no findings");
    expect(t.checks.at(-1)).toMatchObject({ conclusion: "success" });
  });

  it("a reviewer whose prose has neither findings nor a summary fails the review, never a silent success", async () => {
    const prose = "I read the change and it mostly seems fine to me, though I am not sure about one part.";
    const stack = await startStack([{ text: prose }], { files: { "calc.js": CODE } });
    const sha = await pushFeature(stack, { "calc.js": CODE.replace("const v3 = 3;", "const v3 = 4;") });
    const t = { reviews: [] as any[], checks: [] as any[] };
    mockAutomaticReview(stack, t, { checkId: 642, review: false });

    const job = await stack.runToEnd("pull_request", pullRequestEvent("opened", { headSha: sha, cloneUrl: stack.cloneUrl }), "review-prose");

    expect(job.outcome).toMatch(/^❌ Failed: step 1 \(reviewer\): the reviewer gave no review/);
    expect(t.checks.at(-1)).toMatchObject({ conclusion: "failure" });
    expect(JSON.stringify(await stack.crewbot.transcripts.store.read(job.id))).toContain(prose);
  });
});
