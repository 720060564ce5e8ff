/**
 * Automatic reviews end to end: pull_request events → a review job → one PR review whose inline
 * comments GitHub accepts (checked by an independent stand-in that answers 422 like GitHub), and
 * the `crewbot/review` check run. Incremental after the first review; a force-push gets a full one.
 */
import { describe, expect, it } from "vitest";
import { issueCommentCreated, pullRequestEvent } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { GitHubGraphql } from "../helpers/github-graphql.js";
import { githubReviewProblems } from "../helpers/github-review-check.js";
import { API, mockInstallationToken, mockJobComments, mockPermission, mockRepoConfig, REPO_PATH, startStack, TOKEN } from "./harness.js";
import { deliver, GREET, mockReviewJob, OLD_TXT, push, type Traffic } from "./review-harness.js";

useNock();

const REVIEW_1 = [
  "## Critical",
  "- greet.js:10 - `line10` is now a string; callers add it to numbers.",
  "- gone.js:2 - this helper is still imported by app.js.",
  "## Warnings",
  "- util.js:1-3 - the helper has no tests.",
  "- greet.js:25 - unrelated: this line was not changed.",
  "- new.txt:1 - the renamed file lost its header.",
  "## Summary",
  "Two problems must be fixed.",
].join("\n");

describe("automatic reviews of a pull request", () => {
  it("reviews when opened, incrementally after a push, fully after a force-push — every review accepted by GitHub's rules", async () => {
    const stack = await startStack(
      [
        { text: REVIEW_1 },
        // Second review: one finding repeated from the first, one on the new change, one on a line the push did not touch.
        { text: "## Critical\n- greet.js:10 - `line10` is now a string; callers add it to numbers.\n## Warnings\n- greet.js:20 - `line20` shadows a global.\n- greet.js:12 - a line the push did not touch.\n## Summary\nOne new problem." },
        { text: "## Suggestions\n- greet.js:5 - name it better.\n## Summary\nRewritten branch reviewed." },
      ],
      { files: { "greet.js": GREET, "gone.js": "a\nb\nc\n", "old.txt": OLD_TXT, "package-lock.json": "{}\n" } },
    );
    gitSync(stack.remoteDir, "branch", "feature");
    const first = await push(
      stack,
      { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";'), "util.js": "export function a() {}\nexport function b() {}\nexport function c() {}\n", "gone.js": null, "old.txt": null, "new.txt": OLD_TXT.replace("text 1\n", "header\n"), "package-lock.json": '{ "lockfileVersion": 3 }\n' },
      "feature",
    );
    const t: Traffic = { reviews: [], checks: [], rejected: [], graphql: new GitHubGraphql() };

    mockReviewJob(stack, t, { checkId: 501, review: true });
    const job1 = await deliver(stack, "opened", first, "pr-opened");
    expect(job1.outcome).toBe("✅ Done · 2 critical · 3 warnings · 0 suggestions");
    expect(t.rejected).toEqual([]);
    const review1 = t.reviews[0];
    expect(review1).toMatchObject({ event: "COMMENT", commit_id: first });
    expect(review1.comments.map((c: any) => [c.path, c.side, c.start_line ?? null, c.line])).toEqual([
      ["greet.js", "RIGHT", null, 10],
      ["gone.js", "LEFT", null, 2],
      ["util.js", "RIGHT", 1, 3],
      ["new.txt", "RIGHT", null, 1],
    ]);
    expect(review1.body).toContain("greet.js:25");
    expect(review1.body).toMatch(/package-lock\.json`? — lockfile/);
    expect(t.checks.map((c) => [c.method, c.body.status, c.body.conclusion ?? null, c.body.name ?? null])).toEqual([
      ["POST", "in_progress", null, "crewbot/review"],
      ["PATCH", "completed", "neutral", null],
    ]);
    expect(t.checks[1]!.body.output.title).toBe("2 critical · 3 warnings · 0 suggestions");
    expect(t.checks[1]!.body.output.summary).toMatch(/Reviewed 3 of 5 changed files\.[\s\S]*Not reviewed: gone.js \(deleted\), package-lock.json \(lockfile\)\./);
    // The reviewer read the PR's diff, not the lockfile's.
    const context1 = JSON.stringify(stack.fake.requests[0]!.body.messages);
    expect(context1).toContain('+const line10 = \\"10\\";');
    expect(context1).not.toContain("lockfileVersion");
    // Its first message starts from an overview of the repository, not from ls and cat package.json.
    expect(context1).toContain("pull request head: overview of the repository");
    expect(context1).toContain("Files: ");

    // A push: only the new commit is reviewed; the repeated finding is not posted again.
    const second = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";').replace("const line20 = 20;", "const line20 = window;") }, "second");
    t.checks.length = 0;
    mockReviewJob(stack, t, { checkId: 502, review: true, cached: true, config: "review:\n  debounceSeconds: 0\n", graphql: 1 });
    const job2 = await deliver(stack, "synchronize", second, "pr-sync-1");
    expect(job2.outcome).toBe("✅ Done · 0 critical · 2 warnings · 0 suggestions");
    expect(t.rejected).toEqual([]);
    const review2 = t.reviews[1];
    expect(review2.comments.map((c: any) => [c.path, c.line])).toEqual([["greet.js", 20]]);
    expect(review2.body).toContain("greet.js:12");
    expect(review2.body).toMatch(/1 finding already posted on an earlier review is not repeated/);
    const context2 = JSON.stringify(stack.fake.requests[1]!.body.messages);
    expect(context2).toContain("since the last review");
    expect(context2).toContain("+const line20 = window;");
    // Not in the diff (the repository overview names the file among the top-level files).
    expect(context2).not.toContain("+++ b/util.js");
    expect(t.checks[1]!.body.output.summary).toContain(`Incremental review: the commits ${first.slice(0, 7)}..${second.slice(0, 7)}`);

    // A force-push: the last reviewed commit is gone from the branch, so the whole PR is reviewed again.
    gitSync(stack.remoteDir, "branch", "-f", "feature", "main");
    const rewritten = await push(stack, { "greet.js": GREET.replace("const line5 = 5;", "const line5 = 55;") }, "rewritten");
    t.checks.length = 0;
    mockReviewJob(stack, t, { checkId: 503, review: true, cached: true, config: "review:\n  debounceSeconds: 0\n", graphql: 1 });
    const job3 = await deliver(stack, "synchronize", rewritten, "pr-sync-2");
    expect(job3.state).toBe("succeeded");
    expect(t.reviews[2].comments.map((c: any) => [c.path, c.line])).toEqual([["greet.js", 5]]);
    expect(t.checks[1]!.body.output.summary).toContain(`Full review: the last reviewed commit ${second.slice(0, 7)} is no longer in the branch (force-push or rebase).`);
    expect(JSON.stringify([t.reviews, t.checks])).not.toContain(TOKEN);
  });

  it("skips a draft with the reason in the check run, without cloning or asking the model", async () => {
    const stack = await startStack([{ text: "never asked" }]);
    gitSync(stack.remoteDir, "branch", "feature");
    const sha = await push(stack, { "README.md": "# changed\n" }, "change");
    const t: Traffic = { reviews: [], checks: [], rejected: [] };
    mockReviewJob(stack, t, { checkId: 510, context: false });

    const job = await deliver(stack, "opened", sha, "pr-draft", { headSha: sha, draft: true });

    expect(job.outcome).toMatch(/^✅ Skipped: the pull request is a draft/);
    expect(t.checks).toEqual([
      {
        method: "POST",
        body: expect.objectContaining({
          name: "crewbot/review",
          head_sha: sha,
          status: "completed",
          conclusion: "skipped",
          output: { title: "Skipped", summary: "Not reviewed automatically: the pull request is a draft (review.drafts: false); it is reviewed when marked ready." },
        }),
      },
    ]);
    expect(stack.fake.requests).toHaveLength(0);
    expect(stack.git.fetches()).toHaveLength(0);
  });

  it("posts no review on a clean PR, only a successful check run", async () => {
    const stack = await startStack([{ text: "## Summary\nLooks right." }]);
    gitSync(stack.remoteDir, "branch", "feature");
    const sha = await push(stack, { "README.md": "# changed\n" }, "change");
    const t: Traffic = { reviews: [], checks: [], rejected: [] };
    mockReviewJob(stack, t, { checkId: 520 });

    const job = await deliver(stack, "opened", sha, "pr-clean");

    expect(job.outcome).toBe("✅ Done · no findings");
    expect(t.checks.at(-1)!.body).toMatchObject({ status: "completed", conclusion: "success", output: { title: "No findings" } });
  });

  it("moves every finding into the body when GitHub refuses the review once, and never sends it unchanged again", async () => {
    const stack = await startStack([{ text: "## Warnings\n- README.md:1 - a warning.\n## Summary\nOne." }]);
    gitSync(stack.remoteDir, "branch", "feature");
    const sha = await push(stack, { "README.md": "# changed\n" }, "change");
    const t: Traffic = { reviews: [], checks: [], rejected: [] };
    mockReviewJob(stack, t, { checkId: 530, review: true, rejectFirst: true });

    const job = await deliver(stack, "opened", sha, "pr-422");

    expect(job.state).toBe("succeeded");
    expect(t.reviews).toHaveLength(2);
    expect(t.reviews[0].comments).toHaveLength(1);
    expect(t.reviews[1].comments).toEqual([]);
    expect(t.reviews[1].body).toContain("README.md:1");
  });

  it("reviews a fork's pull request with no bash at all", async () => {
    const stack = await startStack([{ text: "## Summary\nFine." }]);
    gitSync(stack.remoteDir, "branch", "feature");
    const sha = await push(stack, { "README.md": "# from a fork\n" }, "change");
    const t: Traffic = { reviews: [], checks: [], rejected: [] };
    mockReviewJob(stack, t, { checkId: 540 });

    await deliver(stack, "opened", sha, "pr-fork", { headSha: sha, headRepo: "mallory/Hello-World" });

    const tools = (stack.fake.requests[0]!.body.tools as Array<{ name: string }>).map((tool) => tool.name).sort();
    // Nothing that runs code or touches the checkout; notes go only to the job's own scratch space.
    expect(tools).toEqual(["find", "grep", "ls", "read", "scratch_write", "submit_review"]);
  });
});

describe("/review on a pull request", () => {
  it("reviews the whole PR in a progress comment, skipping none of the automatic rules", async () => {
    const stack = await startStack([{ text: "## Warnings\n- README.md:1 - shout less.\n## Summary\nOne warning." }]);
    gitSync(stack.remoteDir, "branch", "feature");
    const sha = await push(stack, { "README.md": "# CHANGED\n" }, "change");
    const payload = issueCommentCreated("/review", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    payload.issue.pull_request = { url: `${API}${REPO_PATH}/pulls/1` };
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    const t: Traffic = { reviews: [], checks: [], rejected: [] };
    const diff = gitSync(stack.remoteDir, "diff", "-M", "main...feature");
    mockJobComments({ progressId: 95, edits, trigger: { id: payload.comment.id }, config: { repo: "review:\n  auto: false\n" }, pull: {} })
      .get(`${REPO_PATH}/pulls/1`)
      .reply(200, { head: { sha, repo: { full_name: "Codertocat/Hello-World" } }, base: { ref: "main" } })
      .post(`${REPO_PATH}/pulls/1/reviews`, (b) => (t.reviews.push(b), githubReviewProblems(diff, b).length === 0))
      .reply(200, { id: 800, html_url: "https://github.com/Codertocat/Hello-World/pull/1#pullrequestreview-800" });

    const job = await stack.runToEnd("issue_comment", payload, "review-command");

    expect(job.outcome).toMatch(/^✅ Done · /);
    expect(t.reviews[0].comments.map((c: any) => [c.path, c.line, c.side])).toEqual([["README.md", 1, "RIGHT"]]);
    const final = edits.at(-1)!;
    expect(final).toContain("- Reviewed 1 of 1 changed file.");
    expect(final).toContain("- Findings: 0 critical · 1 warning · 0 suggestions; 1 inline comment. Review: https://github.com/Codertocat/Hello-World/pull/1#pullrequestreview-800");
  });
});

describe("pushes in quick succession", () => {
  it("wait out the debounce, and a newer push supersedes the waiting review: one review, of the newest head", async () => {
    const stack = await startStack([{ text: "## Summary\nReviewed the newest push." }]);
    gitSync(stack.remoteDir, "branch", "feature");
    const first = await push(stack, { "README.md": "# one\n" }, "one");
    const t: Traffic = { reviews: [], checks: [], rejected: [] };
    const config = "review:\n  debounceSeconds: 30\n";
    mockInstallationToken();
    // Read twice: by the trigger (review.auto: whether a job is queued), then by the first job, which waits.
    mockRepoConfig({ repo: config });
    mockRepoConfig({ repo: config });

    const firstEvent = pullRequestEvent("synchronize", { headSha: first, cloneUrl: stack.cloneUrl });
    await stack.probot.receive({ id: "push-1", name: "pull_request", payload: firstEvent } as never);
    const [waiting] = await stack.crewbot.queue.listRecent({ limit: 1 });
    const deferred = async () => {
      const job = await stack.crewbot.queue.get(waiting!.id);
      return job?.state === "queued" && job.attempts === 0 && (job.runAt ?? 0) > Date.now() + 10_000;
    };
    for (let i = 0; i < 200 && !(await deferred()); i++) await new Promise((r) => setTimeout(r, 20));
    expect(await stack.crewbot.queue.get(waiting!.id)).toMatchObject({ state: "queued", runAt: expect.any(Number) });

    const second = await push(stack, { "README.md": "# two\n" }, "two");
    mockReviewJob(stack, t, { checkId: 550, cached: true, config: "review:\n  debounceSeconds: 0\n" });
    mockPermission("Codertocat", "write"); // the waiting job never got as far as reading the conversation
    const job = await deliver(stack, "synchronize", second, "push-2");

    expect(await stack.crewbot.queue.get(waiting!.id)).toMatchObject({ state: "cancelled", outcome: `⏹ Superseded by job ${job.id}` });
    expect(job.outcome).toBe("✅ Done · no findings");
    expect(t.checks.map((c) => c.body.head_sha ?? null)).toEqual([second, null]);
    expect(stack.fake.requests).toHaveLength(1);
  });

  it("reports an invalid config in the check run, naming the key, and reviews nothing", async () => {
    const stack = await startStack([{ text: "never asked" }]);
    gitSync(stack.remoteDir, "branch", "feature");
    const sha = await push(stack, { "README.md": "# changed\n" }, "change");
    const t: Traffic = { reviews: [], checks: [], rejected: [] };
    mockReviewJob(stack, t, { checkId: 560, context: false, config: "review:\n  auto: sometimes\n" });

    const job = await deliver(stack, "opened", sha, "pr-bad-config");

    expect(job.state).toBe("failed");
    expect(t.checks).toHaveLength(1);
    expect(t.checks[0]!.body).toMatchObject({ status: "completed", conclusion: "failure", head_sha: sha });
    expect(t.checks[0]!.body.output.title).toBe("Failed: .github/crewbot.yml is invalid; fix it on the default branch and write the command again");
    expect(t.checks[0]!.body.output.summary).toContain('- `review.auto`: expected true or false, got "sometimes"');
    expect(stack.fake.requests).toHaveLength(0);
  });
});
