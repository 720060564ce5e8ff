/**
 * `/describe` and `review.summary: auto` end to end: the summary block written into the PR's
 * description between its markers, the text around it kept, refreshed after a push, an edit made
 * while crewbot wrote kept, and a block edited by hand left alone (said once by an automatic run).
 */
import nock from "nock";
import { describe, expect, it } from "vitest";
import { issueCommentCreated, pullRequestEvent } from "../fixtures/payloads.js";
import { gitSync } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { HAND_EDITED_MARKER } from "../../src/jobs/describe-job.js";
import { renderSummaryBlock, SUMMARY_END, SUMMARY_START } from "../../src/summary/render-summary.js";
import type { SummarySubmission } from "../../src/tools/submit-summary.js";
import { redact } from "../../src/secrets/redact.js";
import { paddedTo, PEOPLES_TEXT, TOKEN_SHAPES } from "../helpers/peoples-text.js";
import { tempDir } from "../helpers/git-repo.js";
import { API, mockInstallationToken, mockJobComments, mockPermission, mockPullConversation, mockQueuedComment, mockRepoConfig, queuedThenCrashed, REPO_PATH, startStack, type Stack } from "./harness.js";
import { deliver, GREET, mockReviewJob, push, type Traffic } from "./review-harness.js";

useNock();

const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });
const SUMMARY: SummarySubmission = {
  what: "Makes line10 a string, as issue #3 asks.",
  walkthrough: [{ files: "greet.js", change: "line10 becomes a string" }],
  effort: 1,
  effortReason: "one line",
  risks: ["callers that add to line10 now concatenate"],
  diagram: { participants: ["greet.js", "caller"], messages: [{ from: "caller", to: "greet.js", text: "reads line10" }] },
};
const INTRO = "Fixes #3.\n\nPlease look at the string.";

/** GitHub's pull request #1: its description changes when crewbot PATCHes it, or when `meddle` says so on a read. */
function pullOnGitHub(state: { body: string; head: string }, meddle?: (read: number, body: string) => string) {
  let reads = 0;
  const patches: string[] = [];
  const scope = nock(API)
    .get(`${REPO_PATH}/pulls/1`)
    .times(3)
    .optionally()
    .reply(200, () => {
      reads += 1;
      if (meddle) state.body = meddle(reads, state.body);
      return { number: 1, body: state.body, head: { sha: state.head, repo: { full_name: "Codertocat/Hello-World" } }, base: { ref: "main" } };
    })
    .patch(`${REPO_PATH}/pulls/1`, (b: { body: string }) => (patches.push(b.body), (state.body = b.body), true))
    .optionally()
    .reply(200, {})
    .get(`${REPO_PATH}/pulls/1/commits`)
    .query(true)
    .reply(200, [{ sha: state.head, commit: { message: "Make line10 a string\n\nFixes #3" } }])
    .get(`${REPO_PATH}/issues/3`)
    .reply(200, { number: 3, title: "line10 should be a string", body: "Because the template wants one." });
  return { scope, patches };
}

async function describeCommand(stack: Stack, n: number, state: { body: string; head: string }, o: { first?: boolean; meddle?: (read: number, body: string) => string } = {}) {
  const payload = issueCommentCreated("/describe", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
  payload.issue.pull_request = { url: `${API}${REPO_PATH}/pulls/1` };
  payload.comment.id = 9100 + n;
  if (o.first) {
    mockInstallationToken();
    mockPermission("Codertocat", "write");
  }
  const edits: string[] = [];
  mockJobComments({ progressId: 300 + n, edits, trigger: { id: payload.comment.id }, config: { repo: "review:\n  auto: false\n" }, pull: {} });
  const { patches } = pullOnGitHub(state, o.meddle);
  const job = await stack.runToEnd("issue_comment", payload, `describe-${n}`);
  expect(job.state).toBe("succeeded");
  return { patches, final: edits.at(-1)!, context: JSON.stringify(stack.fake.requests.at(-1)!.body.messages) };
}

describe("/describe", () => {
  it("writes the block after the description's text, refreshes it after a push, and keeps an edit made meanwhile", async () => {
    const stack = await startStack([{ content: [use("submit_summary", SUMMARY)] }, { content: [use("submit_summary", { ...SUMMARY, effort: 2, diagram: undefined })] }], { files: { "greet.js": GREET } });
    gitSync(stack.remoteDir, "branch", "feature");
    const first = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";') }, "first");
    const state = { body: INTRO, head: first };

    const one = await describeCommand(stack, 1, state, { first: true });
    const block1 = renderSummaryBlock(SUMMARY, { headSha: first });
    expect(one.patches).toEqual([`${INTRO}\n\n${block1}`]);
    expect(block1).toContain("```mermaid\nsequenceDiagram\n  participant p1 as greet.js\n  participant p2 as caller\n  p2->>p1: reads line10\n```");
    expect(one.final).toContain("The summary is in the pull request's description.");
    // What the describer read: the commits, the linked issue and the diff.
    expect(one.context).toContain("Make line10 a string");
    expect(one.context).toContain("line10 should be a string");
    expect(one.context).toContain('+const line10 = \\"10\\";');
    expect(stack.fake.requests.at(-1)!.body.tools.map((t: { name: string }) => t.name)).toContain("submit_summary");

    // A push, then /describe again; the author edits the text above the block while crewbot writes.
    const second = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "ten";') }, "second");
    state.head = second;
    const two = await describeCommand(stack, 2, state, { meddle: (read, body) => (read === 2 ? body.replace("Please look", "Please do look") : body) });
    const block2 = renderSummaryBlock({ ...SUMMARY, effort: 2, diagram: undefined }, { headSha: second });
    expect(two.patches).toEqual([`${INTRO.replace("Please look", "Please do look")}\n\n${block2}`]);
    expect(state.body).not.toContain(block1);
  });

  it("sends the author's text byte for byte (token shapes, a key's BEGIN line, near GitHub's limit) and redacts only its block, which it knows again", async () => {
    const what = `Rotates the deploy key; the old one was ghp_${"R".repeat(36)}.`;
    const stack = await startStack([{ content: [use("submit_summary", { ...SUMMARY, what })] }, { content: [use("submit_summary", { ...SUMMARY, what })] }], { files: { "greet.js": GREET } });
    gitSync(stack.remoteDir, "branch", "feature");
    const head = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";') }, "first");
    const theirs = paddedTo(PEOPLES_TEXT, 63_500);
    const state = { body: theirs, head };
    const issue12 = () => nock(API).get(`${REPO_PATH}/issues/12`).reply(200, { number: 12, title: "Rotate the key", body: "" });

    issue12();
    const one = await describeCommand(stack, 1, state, { first: true });
    const block = renderSummaryBlock({ ...SUMMARY, what }, { headSha: head, clean: (text) => redact(text) });
    expect(block).not.toContain("ghp_");
    expect(one.patches).toEqual([`${theirs}\n\n${block}`]);
    for (const shape of TOKEN_SHAPES) expect(one.patches[0]).toContain(shape);

    // The block as sent (redacted) hashes as crewbot's: the next /describe finds it unchanged.
    issue12();
    const two = await describeCommand(stack, 2, state);
    expect(two.patches).toEqual([]);
    expect(two.final).toContain("- The summary in the description was already up to date.");
    expect(state.body).toBe(`${theirs}\n\n${block}`);
  });

  it("leaves a block edited by hand as it is and says why in its comment", async () => {
    const stack = await startStack([{ content: [use("submit_summary", SUMMARY)] }], { files: { "greet.js": GREET } });
    gitSync(stack.remoteDir, "branch", "feature");
    const head = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";') }, "first");
    const edited = renderSummaryBlock(SUMMARY, { headSha: head }).replace("one line", "one line, and I checked the callers");
    const state = { body: `${INTRO}\n\n${edited}\n\nMore text.`, head };
    const one = await describeCommand(stack, 1, state, { first: true });
    expect(one.patches).toEqual([]);
    expect(state.body).toBe(`${INTRO}\n\n${edited}\n\nMore text.`);
    expect(one.final).toContain("crewbot left the summary block in the description as it is: its text differs from what crewbot last wrote there.");
  });
});

describe("/describe queued behind another job", () => {
  it("whose process died after its \"⏳ Queued behind\" comment was posted, before its id was stored: the describe run takes that comment over to its end, never a second one", async () => {
    const dataDir = await tempDir("crewbot-data-");
    const stack = await startStack([{ content: [use("submit_summary", SUMMARY)] }], { files: { "greet.js": GREET }, dataDir, runner: false });
    gitSync(stack.remoteDir, "branch", "feature");
    const head = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";') }, "first");
    const payload = issueCommentCreated("/describe", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    payload.issue.pull_request = { url: `${API}${REPO_PATH}/pulls/1` };
    const { job, body } = await queuedThenCrashed(payload, "describe-queued-then-died", 8802, dataDir);

    // The app starts again: the run finds the queued comment by its marker; no 👀 again, no second comment (nock refuses any POST).
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    mockRepoConfig({ repo: "review:\n  auto: false\n" });
    const edits: string[] = [];
    nock(API)
      .get(`${REPO_PATH}/issues/1/comments`)
      .query((q) => q.since !== undefined)
      .reply(200, [{ id: 8802, body, user: { login: "crewbot[bot]", type: "Bot" }, created_at: "2019-05-15T15:21:01Z", updated_at: "2019-05-15T15:21:01Z" }])
      .get(`${REPO_PATH}/issues/1/comments`)
      .query((q) => q.since === undefined)
      .reply(200, [])
      .patch(`${REPO_PATH}/issues/comments/8802`, (b) => (edits.push(b.body), true))
      .times(7)
      .optionally()
      .reply(200, {});
    mockPullConversation();
    const state = { body: INTRO, head };
    const { patches } = pullOnGitHub(state);
    await stack.crewbot.runner.start();
    const ended = await stack.waitFor(job.id);
    await stack.crewbot.background.idle();
    await stack.crewbot.runner.stop({ drain: false, timeoutMs: 1000 });

    expect(ended).toMatchObject({ state: "succeeded", progressCommentId: 8802 });
    expect(patches).toEqual([`${INTRO}\n\n${renderSummaryBlock(SUMMARY, { headSha: head })}`]);
    expect(edits.at(-1)).toMatch(new RegExp(`^✅ Done · .*\\n<!-- crewbot:job:${job.id} -->`));
    expect(edits.at(-1)).toContain("The summary is in the pull request's description.");
  });
});

describe("/describe sent right after a push", () => {
  it("waits behind the push's automatic review with a \"⏳ Queued behind\" comment, which becomes its progress comment and ends terminal: no second comment", async () => {
    const stack = await startStack([{ content: [use("submit_summary", SUMMARY)] }], { files: { "greet.js": GREET }, runner: false });
    gitSync(stack.remoteDir, "branch", "feature");
    const head = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";') }, "first");
    // The push's review is enqueued (the trigger reads the config: automatic reviews are on); /describe comes in right after and waits behind it.
    mockInstallationToken();
    mockRepoConfig({ repo: "review:\n  debounceSeconds: 600\n" });
    await stack.probot.receive({ id: "push-1", name: "pull_request", payload: pullRequestEvent("synchronize", { headSha: head, cloneUrl: stack.cloneUrl }) } as never);
    const payload = issueCommentCreated("/describe", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    payload.issue.pull_request = { url: `${API}${REPO_PATH}/pulls/1` };
    // The token minted for the push's event is reused.
    mockPermission("Codertocat", "write");
    const { posted: queued } = mockQueuedComment(payload.comment.id, 8803);
    const edits: string[] = [];
    nock(API)
      .patch(`${REPO_PATH}/issues/comments/8803`, (b) => (edits.push(b.body), true))
      .times(7)
      .optionally()
      .reply(200, {});
    await stack.probot.receive({ id: "describe-after-push", name: "issue_comment", payload } as never);
    await stack.crewbot.background.idle();
    const [describeJob, review] = await stack.crewbot.queue.listRecent();
    expect(describeJob).toMatchObject({ kind: "describe", progressCommentId: 8803 });
    expect(queued.body).toMatch(new RegExp(`^⏳ Queued behind job ${review!.id}\\n`));

    // The review waits out its debounce (it goes back to the queue); the describe job runs meanwhile, in the queued comment.
    mockRepoConfig({ repo: "review:\n  debounceSeconds: 600\n" });
    mockRepoConfig({ repo: "review:\n  debounceSeconds: 600\n" });
    nock(API).get(`${REPO_PATH}/issues/1/comments`).query(true).reply(200, []);
    mockPullConversation();
    const state = { body: INTRO, head };
    const { patches } = pullOnGitHub(state);
    await stack.crewbot.runner.start();
    const ended = await stack.waitFor(describeJob!.id);
    await stack.crewbot.background.idle();
    await stack.crewbot.runner.stop({ drain: false, timeoutMs: 1000 });

    expect(ended).toMatchObject({ state: "succeeded", progressCommentId: 8803 });
    expect((await stack.crewbot.queue.get(review!.id))?.state).toBe("queued");
    expect(patches).toEqual([`${INTRO}\n\n${renderSummaryBlock(SUMMARY, { headSha: head })}`]);
    expect(edits.at(-1)).toMatch(new RegExp(`^✅ Done · .*\\n<!-- crewbot:job:${describeJob!.id} -->`));
    expect(edits.at(-1)).toContain("The summary is in the pull request's description.");
  });
});

describe("commands.describe: false", () => {
  it("answers that /describe is off, reads nothing of the pull request and writes no description", async () => {
    const stack = await startStack([], { files: { "greet.js": GREET } });
    const payload = issueCommentCreated("/describe", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    payload.issue.pull_request = { url: `${API}${REPO_PATH}/pulls/1` };
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    mockJobComments({ progressId: 400, edits, trigger: { id: payload.comment.id }, conversation: false, config: { repo: "commands:\n  describe: false\n" } });
    const job = await stack.runToEnd("issue_comment", payload, "describe-off");
    expect(job.state).toBe("failed");
    expect(edits.at(-1)).toContain("❌ Failed: /describe is turned off for this repository (commands.describe: false in .github/crewbot.yml)");
    expect(stack.fake.requests).toHaveLength(0);
  });
});

describe("review.summary: auto", () => {
  const CONFIG = "review:\n  summary: auto\n  debounceSeconds: 0\n";

  it("the automatic review writes the block; a later hand edit is said once, then left alone", async () => {
    const stack = await startStack(
      [
        { content: [use("submit_review", { summary: "Fine.", findings: [] })] },
        { content: [use("submit_summary", SUMMARY)] },
        { content: [use("submit_review", { summary: "Fine.", findings: [] })] },
        { content: [use("submit_summary", SUMMARY)] },
        { content: [use("submit_review", { summary: "Fine.", findings: [] })] },
        { content: [use("submit_summary", SUMMARY)] },
      ],
      { files: { "greet.js": GREET } },
    );
    gitSync(stack.remoteDir, "branch", "feature");
    const head = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", 'const line10 = "10";') }, "first");
    const state = { body: INTRO, head };
    const t: Traffic = { reviews: [], checks: [], rejected: [] };

    // The summary's describer reads the conversation too (after the review did), and the note's check reads it.
    const said: string[] = [];
    const comments = (times: number) => {
      const asComments = () => said.map((body, i) => ({ id: 77 + i, body, created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z", user: { login: "crewbot[bot]", type: "Bot" } }));
      nock(API).get(`${REPO_PATH}/issues/1/comments`).query(true).times(times).reply(200, asComments);
      mockPullConversation();
    };
    mockReviewJob(stack, t, { config: CONFIG, checkId: 51 });
    const { patches } = pullOnGitHub(state);
    comments(1);
    expect((await deliver(stack, "opened", head, "auto-1")).state).toBe("succeeded");
    const block = renderSummaryBlock(SUMMARY, { headSha: head });
    expect(patches).toEqual([`${INTRO}\n\n${block}`]);

    // The author edits inside the block; the next two pushes' reviews leave it, and say so once.
    state.body = state.body.replace("one line", "a single line");
    for (const [n, id] of [[2, "auto-2"], [3, "auto-3"]] as const) {
      const next = await push(stack, { "greet.js": GREET.replace("const line10 = 10;", `const line10 = "${n}";`) }, `push ${n}`);
      state.head = next;
      mockReviewJob(stack, t, { config: CONFIG, checkId: 50 + n, cached: true, graphql: 1 });
      const again = pullOnGitHub(state);
      comments(2);
      if (n === 2) nock(API).post(`${REPO_PATH}/issues/1/comments`, (b: { body: string }) => (said.push(b.body), true)).reply(201, { id: 77 });
      expect((await deliver(stack, "synchronize", next, id)).state).toBe("succeeded");
      expect(again.patches).toEqual([]);
    }
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("crewbot left the summary block in the description as it is: its text differs from what crewbot last wrote there.");
    expect(said[0]).toContain(HAND_EDITED_MARKER);
    expect(state.body.startsWith(`${INTRO}\n\n${SUMMARY_START}`) && state.body.endsWith(SUMMARY_END)).toBe(true);
  });
});
