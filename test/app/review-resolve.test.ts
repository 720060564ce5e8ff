/**
 * Threads resolved when fixed, end to end: after a push, crewbot reads its review threads
 * (GraphQL, answered by the schema-checked stand-in), resolves those whose lines the new commits
 * changed, leaves the others, and never posts again the finding of a thread that was resolved or
 * that a writer dismissed. The check run offers "Fix these findings" while a thread is open.
 */
import nock from "nock";
import { describe, expect, it } from "vitest";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { GitHubGraphql } from "../helpers/github-graphql.js";
import { API, mockPermission, REPO_PATH, startStack } from "./harness.js";
import { deliver, GREET, mockReviewJob, push, type Traffic } from "./review-harness.js";
import { SqliteLearningsStore } from "../../src/store/sqlite/learnings.js";

useNock();

const FIX_ACTION = { label: "Fix these findings", description: "crewbot fixes the open review findings", identifier: "fix" };
const SYNC = "review:\n  debounceSeconds: 0\n";
const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });
/** GitHub's answer for a commit: the login of its author. */
const commitAuthor = (sha: string, login: string) => nock(API).get(`${REPO_PATH}/commits/${sha}`).reply(200, { sha, author: { login, type: "User" }, commit: { message: "" } });
const edit = (pairs: Array<[number, string]>) => pairs.reduce((text, [n, value]) => text.replace(`const line${n} = ${n};`, `const line${n} = ${value};`), GREET);

describe("crewbot's review threads after a push", () => {
  it("resolves the thread whose line the push changed, leaves the other, and does not post the fixed finding again", async () => {
    const stack = await startStack(
      [
        { text: "## Critical\n- greet.js:10 - `line10` is now a string.\n## Warnings\n- greet.js:20 - `line20` shadows a global.\n## Summary\nTwo." },
        { text: "## Critical\n- greet.js:10 - `line10` is now a string.\n## Warnings\n- greet.js:20 - `line20` shadows a global.\n- greet.js:30 - `line30` is too big.\n## Summary\nAgain." },
      ],
      { files: { "greet.js": GREET } },
    );
    gitSync(stack.remoteDir, "branch", "feature");
    const first = await push(stack, { "greet.js": edit([[10, '"10"'], [20, "window"]]) }, "first");
    const t: Traffic = { reviews: [], checks: [], rejected: [], graphql: new GitHubGraphql() };
    mockReviewJob(stack, t, { checkId: 601, review: true });
    await deliver(stack, "opened", first, "resolve-opened");
    const [line10, line20] = t.graphql!.threads;
    expect([line10!.path, line10!.line, line20!.line]).toEqual(["greet.js", 10, 20]);
    expect(t.checks.at(-1)!.body.actions).toEqual([FIX_ACTION]);

    // The fix: line 10 back to a number; line 20 untouched; a new change on line 30.
    const second = await push(stack, { "greet.js": edit([[20, "window"], [30, "300"]]) }, "fix line 10");
    t.checks.length = 0;
    mockReviewJob(stack, t, { checkId: 602, review: true, cached: true, config: SYNC, graphql: 2 });
    const job = await deliver(stack, "synchronize", second, "resolve-sync");

    expect(t.rejected).toEqual([]);
    expect(t.graphql!.resolvedByMutation).toEqual([line10!.id]);
    expect(line20!.isResolved).toBe(false);
    // Line 10's finding is not posted again (its thread is resolved), line 20's is a repeat on unchanged code.
    expect(t.reviews[1].comments.map((c: any) => [c.path, c.line])).toEqual([["greet.js", 30]]);
    expect(t.reviews[1].body).not.toContain("line10");
    expect(job.outcome).toBe("✅ Done · 0 critical · 1 warning · 0 suggestions");
    const summary = t.checks.at(-1)!.body.output.summary;
    expect(summary).toContain("Resolved 1 review thread whose lines the new commits changed.");
    expect(summary).toContain("1 finding resolved or dismissed earlier not posted again.");
    expect(t.checks.at(-1)!.body.actions).toEqual([FIX_ACTION]);
    expect(t.graphql!.requests.map((r) => /^(query|mutation) (\w+)/.exec(r.query.trim())?.[2])).toEqual(["ReviewThreads", "ResolveThread"]);
  });

  it("never posts again a finding a person resolved or a writer dismissed, even on changed code; a reader's dismissal counts for nothing", async () => {
    const stack = await startStack(
      [
        { text: "## Warnings\n- greet.js:10 - `line10` is now a string.\n- greet.js:20 - `line20` shadows a global.\n- greet.js:25 - `line25` is odd.\n## Summary\nThree." },
        {
          text: "## Warnings\n- greet.js:10 - `line10` is now a string.\n- greet.js:20 - `line20` shadows a global.\n- greet.js:25 - `line25` is odd.\n- greet.js:28 - `line28` is new.\n## Summary\nAgain.",
        },
      ],
      { files: { "greet.js": GREET } },
    );
    gitSync(stack.remoteDir, "branch", "feature");
    const first = await push(stack, { "greet.js": edit([[10, '"10"'], [20, "window"], [25, "25.5"]]) }, "first");
    const t: Traffic = { reviews: [], checks: [], rejected: [], graphql: new GitHubGraphql() };
    mockReviewJob(stack, t, { checkId: 611, review: true, config: "review:\n  fixAction: false\n" });
    await deliver(stack, "opened", first, "dismiss-opened");
    expect(t.checks.at(-1)!.body.actions).toBeUndefined(); // review.fixAction: false
    const [line10, line20, line25] = t.graphql!.threads;
    t.graphql!.resolveAs(line10!, "Codertocat");
    t.graphql!.reply(line20!, "octocat", "Won't fix: the global is what we want here.");
    t.graphql!.reply(line25!, "passerby", "false positive");

    // New code on every flagged line: each old fingerprint is gone, and line 25's thread is fixed by the push.
    const second = await push(stack, { "greet.js": edit([[10, '"ten"'], [20, "globalThis"], [25, "25"], [28, "280"]]) }, "second");
    t.checks.length = 0;
    mockPermission("octocat", "write");
    mockPermission("passerby", "read");
    mockReviewJob(stack, t, { checkId: 612, review: true, cached: true, config: SYNC, graphql: 2 });
    await deliver(stack, "synchronize", second, "dismiss-sync");

    expect(t.rejected).toEqual([]);
    expect(t.reviews[1].comments.map((c: any) => [c.path, c.line])).toEqual([["greet.js", 28]]);
    expect(t.reviews[1].body).not.toMatch(/line10|line20|line25/);
    // Not resolved again (a person did), not resolved over a dismissal; the reader's "false positive" did not close line 25: the push did.
    expect(t.graphql!.resolvedByMutation).toEqual([line25!.id]);
    expect(line20!.isResolved).toBe(false);
    expect(t.checks.at(-1)!.body.output.summary).toContain("3 findings resolved or dismissed earlier not posted again.");
  });

  it("learns from suggestions: one committed as given is accepted (credited to the writer who committed it), one whose thread a writer resolved without the change is refused", async () => {
    const findings = [
      { path: "greet.js", line: 10, severity: "warning", body: "`line10` is now a string.", suggestion: "const line10 = 10;", kind: "Number stored as string" },
      { path: "greet.js", line: 20, severity: "suggestion", body: "`line20` shadows a global.", suggestion: "const line20 = 20;", kind: "shadowed global" },
    ];
    const stack = await startStack([{ content: [use("submit_review", { summary: "Two.", findings })] }, { text: "## Summary\nClean now." }], { files: { "greet.js": GREET } });
    gitSync(stack.remoteDir, "branch", "feature");
    const first = await push(stack, { "greet.js": edit([[10, '"10"'], [20, "window"]]) }, "first");
    const t: Traffic = { reviews: [], checks: [], rejected: [], graphql: new GitHubGraphql() };
    mockReviewJob(stack, t, { checkId: 631, review: true });
    await deliver(stack, "opened", first, "suggest-opened");
    expect(t.reviews[0].comments.map((c: any) => c.body.includes("```suggestion"))).toEqual([true, true]);
    const [line10, line20] = t.graphql!.threads;
    t.graphql!.resolveAs(line20!, "Codertocat");

    // octocat's "Commit suggestion" on line 10: its lines now hold the suggestion; line 20 stays as it was.
    // A later commit changes another line of the file; the review is of that head.
    const applied = await push(stack, { "greet.js": edit([[20, "window"]]) }, "Apply suggestion from crewbot");
    const second = await push(stack, { "greet.js": edit([[20, "window"], [28, "280"]]) }, "Tweak line 28");
    mockReviewJob(stack, t, { checkId: 632, cached: true, config: SYNC, graphql: 2 });
    // The accepted suggestion is credited to the author GitHub names for the commit that applied it, a writer.
    commitAuthor(applied, "octocat");
    mockPermission("octocat", "write");
    await deliver(stack, "synchronize", second, "suggest-sync");
    expect(t.rejected).toEqual([]);
    expect(t.graphql!.resolvedByMutation).toEqual([line10!.id]);

    const store = new SqliteLearningsStore({ dataDir: stack.dataDir });
    const candidates = await store.candidates("codertocat/hello-world");
    await store.close();
    const url = (thread: typeof line10) => `https://github.com/Codertocat/Hello-World/pull/1#discussion_r${thread!.comments[0]!.databaseId}`;
    expect(candidates.map((c) => [c.key, c.paths, c.sightings.map((x) => [x.source, x.by, x.url, x.number, x.kind, x.text])])).toEqual([
      ["suggestion-accepted:number stored as string", ["greet.js"], [["suggestion-accepted", "octocat", url(line10), 1, "number stored as string", "finding: `line10` is now a string."]]],
      ["suggestion-refused:shadowed global", ["greet.js"], [["suggestion-refused", "Codertocat", url(line20), 1, "shadowed global", "finding: `line20` shadows a global."]]],
    ]);
  });

  it("credits no one for suggestions a fork's author applied on a maintainer's re-review: the author cannot write, and the maintainer did not apply them", async () => {
    const findings = [
      { path: "greet.js", line: 10, severity: "warning", body: "`line10` is now a string.", suggestion: "const line10 = 10;", kind: "Number stored as string" },
      { path: "greet.js", line: 20, severity: "warning", body: "`line20` shadows a global.", suggestion: "const line20 = 20;", kind: "Number stored as string" },
    ];
    const stack = await startStack([{ content: [use("submit_review", { summary: "Two.", findings })] }, { text: "## Summary\nClean now." }], { files: { "greet.js": GREET } });
    gitSync(stack.remoteDir, "branch", "feature");
    const first = await push(stack, { "greet.js": edit([[10, '"10"'], [20, "window"]]) }, "first");
    const t: Traffic = { reviews: [], checks: [], rejected: [], graphql: new GitHubGraphql() };
    mockReviewJob(stack, t, { checkId: 641, review: true });
    await deliver(stack, "opened", first, "fork-opened");

    // The fork's author commits both suggestions; the maintainer's review of the push reads the threads.
    const applied = await push(stack, { "greet.js": GREET }, "Apply suggestions from crewbot");
    mockReviewJob(stack, t, { checkId: 642, cached: true, config: SYNC, graphql: 3 });
    commitAuthor(applied, "fork-author");
    mockPermission("fork-author", "read");
    await deliver(stack, "synchronize", applied, "fork-sync");
    expect(t.rejected).toEqual([]);

    const store = new SqliteLearningsStore({ dataDir: stack.dataDir });
    expect(await store.candidates("codertocat/hello-world")).toEqual([]);
    await store.close();
    expect((await stack.crewbot.queue.listRecent()).filter((j) => j.kind === "learn")).toEqual([]);
  });

  it("keeps a thread open when its commit is gone after a force-push, and says nothing about it", async () => {
    const stack = await startStack(
      [
        { text: "## Warnings\n- greet.js:10 - `line10` is now a string.\n## Summary\nOne." },
        { text: "## Summary\nClean now." },
      ],
      { files: { "greet.js": GREET } },
    );
    gitSync(stack.remoteDir, "branch", "feature");
    const first = await push(stack, { "greet.js": edit([[10, '"10"']]) }, "first");
    const t: Traffic = { reviews: [], checks: [], rejected: [], graphql: new GitHubGraphql() };
    mockReviewJob(stack, t, { checkId: 621, review: true });
    await deliver(stack, "opened", first, "force-opened");
    gitSync(stack.remoteDir, "branch", "-f", "feature", "main");
    const rewritten = await push(stack, { "greet.js": edit([[5, "55"]]) }, "rewritten");
    mockReviewJob(stack, t, { checkId: 622, cached: true, config: SYNC, graphql: 1 });
    await deliver(stack, "synchronize", rewritten, "force-sync");
    expect(t.graphql!.resolvedByMutation).toEqual([]);
    expect(t.checks.at(-1)!.body.output.summary).not.toContain("Resolved");
  });
});
