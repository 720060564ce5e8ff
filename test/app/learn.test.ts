/**
 * The learnings pull request end to end: `/crewbot learn` opens it once with exactly the file and
 * body, touching that file alone; a second one updates the same pull request and keeps a person's
 * edit on its branch; stale learnings are proposed for removal; `/crewbot learnings` lists the
 * merged ones with their uses; a due candidate's proposal writes no comment; a reader is refused;
 * `learnings.enabled: false` is answered. GitHub is nock (strict), the model the fake.
 */
import nock from "nock";
import { describe, expect, it } from "vitest";
import { DEFAULT_PREAMBLE, learningMarker } from "../../src/learnings/learnings-file.js";
import { candidateLearningId } from "../../src/learnings/proposal.js";
import { DAY_MS } from "../../src/learnings/proposal.js";
import { LEARNINGS_PR_MARKER } from "../../src/learnings/render-learnings.js";
import type { CandidateSighting } from "../../src/learnings/types.js";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { useNock } from "../helpers/github.js";
import { paddedTo, PEOPLES_LINES, TOKEN_SHAPES } from "../helpers/peoples-text.js";
import type { FakeReply } from "../helpers/fake-anthropic.js";
import { API, INSTALLATION_ID, mockInstallationToken, mockJobComments, mockPermission, mockQueuedComment, mockRepoConfig, REPO_PATH, startStack, type Stack } from "./harness.js";

useNock();

const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });
const MAIN = "a".repeat(40);
const TREE = "b".repeat(40);
const FILE_PATH = `${REPO_PATH}/contents/.github%2Fcrewbot%2Flearnings.md`;
const PR_URL = "https://github.com/Codertocat/Hello-World/pull/50";
const KEY = "codertocat/hello-world";
const threadUrl = (n: number) => `https://github.com/Codertocat/Hello-World/pull/${n}#discussion_r${n}00`;

const sighting = (number: number, kind: string, path: string, text: string, source: CandidateSighting["source"] = "dismissed"): CandidateSighting => ({
  source,
  url: threadUrl(number),
  number,
  by: "Codertocat",
  at: 1_700_000_000_000 + number,
  kind,
  text,
  path,
});

const file = (...bullets: string[]) => `${[...DEFAULT_PREAMBLE, "", ...bullets].join("\n")}\n`;
const bullet = (text: string, id: string) => `- ${text} ${learningMarker(id)}`;
const encoded = (text: string) => ({ type: "file", size: Buffer.byteLength(text), encoding: "base64", content: Buffer.from(text).toString("base64") });

interface Reads {
  branch?: { sha: string; status: string; mergeBase: string };
  open?: number;
  /** The file at each ref, in the order the job reads them (undefined: 404). */
  files: Array<[string, string | undefined]>;
  /** The commit of the file `staleDays` ago (null: none). */
  asOf?: string | null;
}

/** What a proposal reads of GitHub: the heads, the open pull request, the files. */
function mockReads(r: Reads): void {
  const scope = nock(API)
    .get(`${REPO_PATH}/git/ref/heads%2Fmain`)
    .reply(200, { ref: "refs/heads/main", object: { sha: MAIN, type: "commit" } })
    .get(`${REPO_PATH}/git/commits/${MAIN}`)
    .reply(200, { sha: MAIN, tree: { sha: TREE } })
    .get(`${REPO_PATH}/git/ref/heads%2Fcrewbot%2Flearnings`)
    .reply(r.branch ? 200 : 404, r.branch ? { ref: "refs/heads/crewbot/learnings", object: { sha: r.branch.sha, type: "commit" } } : { message: "Not Found" })
    .get(`${REPO_PATH}/pulls`)
    .query({ head: "Codertocat:crewbot/learnings", state: "open", per_page: "10" })
    .reply(200, r.open ? [{ number: r.open, html_url: PR_URL, head: { ref: "crewbot/learnings" } }] : []);
  if (r.branch) scope.get(`${REPO_PATH}/compare/${MAIN}...${r.branch.sha}`).query({ per_page: "1" }).reply(200, { status: r.branch.status, merge_base_commit: { sha: r.branch.mergeBase } });
  for (const [ref, text] of r.files) scope.get(FILE_PATH).query({ ref }).reply(text === undefined ? 404 : 200, text === undefined ? { message: "Not Found" } : encoded(text));
  if (r.asOf !== undefined) scope.get(`${REPO_PATH}/commits`).query((q) => q.sha === MAIN && q.path === ".github/crewbot/learnings.md" && typeof q.until === "string").reply(200, r.asOf ? [{ sha: r.asOf }] : []);
}

/** The proposal's writes, recorded: tree, commit, ref, pull request. */
function mockWrites(o: { branchExists: boolean; open?: number }) {
  const sent: Array<[string, any]> = [];
  const record = (what: string) => (body: any) => (sent.push([what, body]), true);
  const scope = nock(API)
    .post(`${REPO_PATH}/git/trees`, record("tree"))
    .reply(201, { sha: "c".repeat(40), tree: [], truncated: false })
    .post(`${REPO_PATH}/git/commits`, record("commit"))
    .reply(201, { sha: "d".repeat(40) });
  if (o.branchExists) scope.patch(`${REPO_PATH}/git/refs/heads%2Fcrewbot%2Flearnings`, record("ref")).reply(200, { ref: "refs/heads/crewbot/learnings", object: { sha: "d".repeat(40) } });
  else scope.post(`${REPO_PATH}/git/refs`, record("ref")).reply(201, { ref: "refs/heads/crewbot/learnings", object: { sha: "d".repeat(40) } });
  if (o.open) scope.patch(`${REPO_PATH}/pulls/${o.open}`, record("pull")).reply(200, { number: o.open, html_url: PR_URL });
  else scope.post(`${REPO_PATH}/pulls`, record("pull")).reply(201, { number: 50, html_url: PR_URL });
  return sent;
}

async function learnCommand(stack: Stack, n: number, o: { first?: boolean; config?: string; body?: string } = {}) {
  const payload = issueCommentCreated(o.body ?? "/crewbot learn", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
  payload.comment.id = 8100 + n;
  if (o.first) {
    mockInstallationToken();
    mockPermission("Codertocat", "write");
  }
  const edits: string[] = [];
  mockJobComments({ progressId: 500 + n, edits, trigger: { id: payload.comment.id }, conversation: false, config: o.config === undefined ? {} : { repo: o.config } });
  const job = await stack.runToEnd("issue_comment", payload, `learn-${n}`);
  return { job, final: edits.at(-1)! };
}

/** A stack with its own (SQLite) learnings store; the model's replies are pushed to `script` as the test goes. */
async function stackWithLearnings(options: Parameters<typeof startStack>[1] = {}) {
  const script: FakeReply[] = [];
  const stack = await startStack(script, options);
  const store = stack.crewbot.services.records.learnings;
  return { stack, store, script };
}

const RAW_SQL = "In `src/db/**`, raw SQL strings are intended: don't flag them";
const MAGIC = "In `src/config/**`, numeric defaults are documented in the schema: don't ask for named constants";
const EARLY = "Prefer early returns over nested conditions in handlers";

describe("/crewbot learn", () => {
  it("opens the learnings pull request once with exactly the file and body, then updates the same one, keeping a person's edit", async () => {
    const { stack, store, script } = await stackWithLearnings();
    await store.addSighting(KEY, sighting(12, "raw sql string", "src/db/query.ts", "won't fix: raw SQL is intended here"));
    await store.addSighting(KEY, sighting(40, "raw sql string", "src/db/users.ts", "false positive, we want raw SQL"));
    await store.addSighting(KEY, sighting(41, "magic number", "src/config/defaults.ts", "not a bug: the schema documents it"));
    const [sql, magic] = await store.candidates(KEY);
    script.push({ content: [use("submit_learnings", { learnings: [{ candidate: sql!.key, text: RAW_SQL }, { candidate: magic!.key, text: `${MAGIC}.` }] })] });

    mockReads({ files: [[MAIN, undefined]] });
    const first = mockWrites({ branchExists: false });
    const one = await learnCommand(stack, 1, { first: true });
    expect(one.job.outcome).toMatch(/^✅ Done/);

    const sqlLine = bullet(`${RAW_SQL} (2 dismissals: [#12](${threadUrl(12)}), [#40](${threadUrl(40)}))`, candidateLearningId(sql!.key));
    const magicLine = bullet(`${MAGIC} (1 dismissal: [#41](${threadUrl(41)}))`, candidateLearningId(magic!.key));
    const proposed = file(sqlLine, magicLine);
    expect(first.map(([what]) => what)).toEqual(["tree", "commit", "ref", "pull"]);
    // The commit's tree is the default branch's head with one path changed: the learnings file.
    expect(first[0]![1]).toEqual({ base_tree: TREE, tree: [{ path: ".github/crewbot/learnings.md", mode: "100644", type: "blob", content: proposed }] });
    expect(first[1]![1]).toEqual({ message: expect.stringMatching(/^Propose learnings: 2 added\n/), tree: "c".repeat(40), parents: [MAIN] });
    expect(first[2]![1]).toEqual({ ref: "refs/heads/crewbot/learnings", sha: "d".repeat(40) });
    const body = first[3]![1].body as string;
    expect(first[3]![1]).toEqual({ title: "crewbot learnings: what this team taught crewbot", head: "crewbot/learnings", base: "main", body, draft: false });
    expect(body).toContain(
      [
        "### Added (2)",
        `- ${RAW_SQL} (2 dismissals: [#12](${threadUrl(12)}), [#40](${threadUrl(40)}))`,
        `- ${MAGIC} (1 dismissal: [#41](${threadUrl(41)}))`,
        "",
        "### Proposed for removal (0)",
        "- nothing",
        "",
        "### How to edit or veto",
      ].join("\n"),
    );
    expect(body.endsWith(LEARNINGS_PR_MARKER)).toBe(true);
    expect(one.final).toContain(`Opened the learnings pull request (2 new learning(s), 0 proposed for removal): ${PR_URL}`);
    expect(one.final).toContain(`Pull request [#50](${PR_URL})`);
    expect((await store.candidates(KEY)).map((c) => c.proposedIn)).toEqual([PR_URL, PR_URL]);
    // The learner read the candidates as data, and had no tool but its hand-over (and its scratch space).
    const request = stack.fake.requests.at(-1)!.body;
    expect(request.tools.map((t: { name: string }) => t.name)).toEqual(["scratch_write", "submit_learnings"]);
    expect(JSON.stringify(request.messages)).toContain("false positive, we want raw SQL");

    // A person rewords the first learning on the branch; a new candidate comes; /crewbot learn again.
    const edited = file(bullet("In `src/db/**`, raw SQL is intended (we use no ORM): never flag it", candidateLearningId(sql!.key)), magicLine);
    await store.addSighting(KEY, sighting(44, "early return", "src/triggers/on-comment.ts", "we always prefer early returns here", "rule"));
    const early = (await store.candidates(KEY))[2]!;
    script.push({ content: [use("submit_learnings", { learnings: [{ candidate: early.key, text: EARLY }] })] });
    const personal = "e".repeat(40);
    mockReads({ branch: { sha: personal, status: "ahead", mergeBase: MAIN }, open: 50, files: [[MAIN, undefined], [personal, edited], [MAIN, undefined]] });
    const second = mockWrites({ branchExists: true, open: 50 });
    const two = await learnCommand(stack, 2);
    expect(two.job.outcome).toMatch(/^✅ Done/);
    expect(second.map(([what]) => what)).toEqual(["tree", "commit", "ref", "pull"]);
    expect(second[0]![1].tree).toEqual([
      { path: ".github/crewbot/learnings.md", mode: "100644", type: "blob", content: `${edited}${bullet(`${EARLY} (1 reply: [#44](${threadUrl(44)}))`, candidateLearningId(early.key))}\n` },
    ]);
    // On top of the person's commit, without force; the same pull request, its body renewed.
    expect(second[1]![1].parents).toEqual([personal]);
    expect(second[2]![1]).toEqual({ sha: "d".repeat(40), force: false });
    expect(Object.keys(second[3]![1])).toEqual(["body"]);
    expect(second[3]![1].body).toContain("### Added (3)\n- In `src/db/**`, raw SQL is intended (we use no ORM): never flag it\n");
    expect(two.final).toContain(`Updated the learnings pull request (1 new learning(s), 0 proposed for removal): ${PR_URL}`);
    // The second learner saw only the new candidate.
    const context = JSON.stringify(stack.fake.requests.at(-1)!.body.messages);
    expect(context).toContain("we always prefer early returns here");
    expect(context).not.toContain("false positive, we want raw SQL");
  });

  it("commits a person's file on the branch byte for byte (CRLF, token shapes, a key's BEGIN line, their own bullets) with only crewbot's bullet redacted", async () => {
    const { stack, store, script } = await stackWithLearnings();
    await store.addSighting(KEY, sighting(44, "sample keys in fixtures", "test/fixtures/keys.ts", "we always keep sample keys in fixtures", "rule"));
    const [fixtures] = await store.candidates(KEY);
    script.push({ content: [use("submit_learnings", { learnings: [{ candidate: fixtures!.key, text: `Fixtures hold sample keys like ghp_${"S".repeat(36)}: don't flag them` }] })] });
    const notes = paddedTo(PEOPLES_LINES.slice(0, 2).join("\r\n"), 66_000);
    const theirs = ["# Our learnings", "", notes, "", ...PEOPLES_LINES.slice(2, -2), "* Keep `var` in legacy/, a rule of ours", "  (continued on a second line)", ""].join("\r\n");
    const personal = "e".repeat(40);
    mockReads({ branch: { sha: personal, status: "ahead", mergeBase: MAIN }, open: 50, files: [[MAIN, undefined], [personal, theirs], [MAIN, undefined]] });
    const sent = mockWrites({ branchExists: true, open: 50 });
    const one = await learnCommand(stack, 1, { first: true });
    expect(one.job.outcome).toMatch(/^✅ Done/);
    const ours = bullet(`Fixtures hold sample keys like [redacted]: don't flag them (1 reply: [#44](${threadUrl(44)}))`, candidateLearningId(fixtures!.key));
    expect(sent[0]![1].tree).toEqual([{ path: ".github/crewbot/learnings.md", mode: "100644", type: "blob", content: `${theirs}${ours}\r\n` }]);
    for (const shape of TOKEN_SHAPES) expect(sent[0]![1].tree[0].content).toContain(shape);
  });

  it("proposes merged learnings no review used for staleDays for removal, and says why", async () => {
    const { stack, store } = await stackWithLearnings();
    const now = Date.now();
    const merged = file(bullet("Keep `var` in legacy/ (2 dismissals)", "11111111"), bullet("Used lately", "22222222"), bullet("Never used since long ago", "33333333"), bullet("Never used, merged lately", "44444444"));
    const back = file(bullet("Keep `var` in legacy/ (2 dismissals)", "11111111"), bullet("Used lately", "22222222"), bullet("Never used since long ago", "33333333"));
    await store.recordUses(KEY, [
      { id: "11111111", jobId: "j1", at: now - 120 * DAY_MS, suppressed: 1, shaped: 0 },
      { id: "22222222", jobId: "j2", at: now - 5 * DAY_MS, suppressed: 0, shaped: 1 },
    ]);
    const old = "f".repeat(40);
    mockReads({ files: [[MAIN, merged], [old, back]], asOf: old });
    const sent = mockWrites({ branchExists: false });
    const one = await learnCommand(stack, 1, { first: true });
    expect(one.job.outcome).toMatch(/^✅ Done/);
    expect(stack.fake.requests).toHaveLength(0); // nothing to word: no candidate
    expect(sent[0]![1].tree[0].content).toBe(file(bullet("Used lately", "22222222"), bullet("Never used, merged lately", "44444444")));
    expect(sent[1]![1].message).toMatch(/^Propose learnings: 0 added, 2 proposed for removal\n/);
    const day = new Date(now - 120 * DAY_MS).toISOString().slice(0, 10);
    expect(sent[3]![1].body).toContain(
      [
        "### Added (0)",
        "- nothing",
        "",
        "### Proposed for removal (2)",
        `- Keep \`var\` in legacy/ (2 dismissals) — no review used it since ${day}, more than 90 days ago`,
        "- Never used since long ago — no review used it in the 90 days since it was merged",
      ].join("\n"),
    );
    expect(one.final).toContain(`Opened the learnings pull request (0 new learning(s), 2 proposed for removal): ${PR_URL}`);
  });

  it("drops words that carry a link, writes nothing, and keeps the candidate", async () => {
    const { stack, store, script } = await stackWithLearnings();
    await store.addSighting(KEY, sighting(12, "raw sql string", "src/db/query.ts", "won't fix: see https://evil.example/approve-all"));
    const [sql] = await store.candidates(KEY);
    script.push({ content: [use("submit_learnings", { learnings: [{ candidate: sql!.key, text: "Raw SQL is fine, details at https://evil.example/approve-all" }] })] });
    mockReads({ files: [[MAIN, undefined]] });
    const one = await learnCommand(stack, 1, { first: true });
    expect(one.job.outcome).toMatch(/^✅ Done/);
    expect(one.final).toContain(`Not proposed: the learning for "${sql!.key}" was dropped: it holds a link (crewbot adds the threads' links itself).`);
    expect(one.final).toContain("Nothing to propose: no learning came of the 1 candidate(s), and no learning is stale.");
    expect((await store.candidates(KEY))[0]!.proposedIn).toBeUndefined();
  });

  it("is refused for someone without write access, like every command, and nothing is read", async () => {
    const { stack } = await stackWithLearnings({ runner: false });
    mockInstallationToken();
    mockPermission("mallory", "read");
    const bodies: string[] = [];
    nock(API).post(`${REPO_PATH}/issues/1/comments`, (b) => (bodies.push(b.body), true)).reply(201, { id: 1 });
    await stack.probot.receive({ id: "learn-reader", name: "issue_comment", payload: issueCommentCreated("/crewbot learn", { login: "mallory" }) } as never);
    await stack.crewbot.background.idle();
    expect(bodies).toEqual(["Sorry @\u200Bmallory, only people with write, maintain or admin permission on this repository can run crewbot commands. Nothing was started."]);
    expect(await stack.crewbot.queue.listRecent()).toEqual([]);
  });

  it("answers that learnings are off with learnings.enabled: false, and reads nothing else", async () => {
    const { stack } = await stackWithLearnings();
    const one = await learnCommand(stack, 1, { first: true, config: "learnings:\n  enabled: false\n" });
    expect(one.job.state).toBe("failed");
    expect(one.final).toContain("❌ Failed: learnings are turned off for this repository (learnings.enabled: false in .github/crewbot.yml)");

    const bodies: string[] = [];
    mockRepoConfig({ repo: "learnings:\n  enabled: false\n" });
    nock(API).post(`${REPO_PATH}/issues/1/comments`, (b) => (bodies.push(b.body), true)).reply(201, { id: 2 });
    const list = await stack.runToEnd("issue_comment", issueCommentCreated("/crewbot learnings", { cloneUrl: stack.cloneUrl, defaultBranch: "main" }), "learnings-off");
    expect(list.state).toBe("failed");
    expect(bodies).toEqual(["crewbot lists no learnings here: learnings are turned off for this repository (learnings.enabled: false in .github/crewbot.yml)."]);
  });
});

describe("/crewbot learnings", () => {
  it("lists the merged learnings with the reviews each shaped in 30 days and its last use, and the open pull request", async () => {
    const { stack, store } = await stackWithLearnings();
    const now = Date.now();
    await store.recordUses(KEY, [
      { id: "11111111", jobId: "j1", at: now - 2 * DAY_MS, suppressed: 1, shaped: 0 },
      { id: "11111111", jobId: "j2", at: now - 1 * DAY_MS, suppressed: 0, shaped: 2 },
      { id: "11111111", jobId: "j0", at: now - 40 * DAY_MS, suppressed: 1, shaped: 0 },
      { id: "22222222", jobId: "j0", at: now - 40 * DAY_MS, suppressed: 1, shaped: 0 },
    ]);
    const payload = issueCommentCreated("/crewbot learnings", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const bodies: string[] = [];
    nock(API)
      .get(`${REPO_PATH}/contents/.github%2Fcrewbot.yml`)
      .reply(404, { message: "Not Found" })
      .get("/repos/Codertocat/.github/contents/.github%2Fcrewbot.yml")
      .reply(404, { message: "Not Found" })
      .get(FILE_PATH)
      .query({ ref: "main" })
      .reply(200, encoded(file(bullet("Raw SQL in `src/db/**` | is intended", "11111111"), bullet("Ask @octocat about migrations", "22222222"), "- A person's own rule")))
      .get(`${REPO_PATH}/pulls`)
      .query({ head: "Codertocat:crewbot/learnings", state: "open", per_page: "10" })
      .reply(200, [{ number: 50, html_url: PR_URL, head: { ref: "crewbot/learnings" } }])
      .post(`${REPO_PATH}/issues/1/comments`, (b) => (bodies.push(b.body), true))
      .reply(201, { id: 1 });
    const job = await stack.runToEnd("issue_comment", payload, "learnings-list");
    expect(job.outcome).toBe("✅ Done: listed 3 learning(s)");
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    expect(bodies).toEqual([
      [
        "**3 learnings** merged on `main` (`.github/crewbot/learnings.md`):",
        "",
        "| Learning | Reviews it shaped (30 days) | Last used |",
        "|---|---|---|",
        `| Raw SQL in \`src/db/**\` \\| is intended | 2 | ${day(now - 1 * DAY_MS)} |`,
        `| Ask @\u200Boctocat about migrations | 0 | ${day(now - 40 * DAY_MS)} |`,
        "| A person's own rule | 0 | never |",
        "",
        "The learnings pull request waiting for review: #50.",
      ].join("\n"),
    ]);
    expect(stack.fake.requests).toHaveLength(0);
  });
});

describe("a due candidate", () => {
  it("queues one proposal per repository, which writes no comment and proposes only the due candidates", async () => {
    const { stack, store, script } = await stackWithLearnings({ runner: false });
    await store.addSighting(KEY, sighting(12, "raw sql string", "src/db/query.ts", "won't fix"));
    await store.addSighting(KEY, sighting(40, "raw sql string", "src/db/users.ts", "false positive"));
    await store.addSighting(KEY, sighting(41, "magic number", "src/config/defaults.ts", "not a bug"));
    const request = { installationId: INSTALLATION_ID, owner: "Codertocat", repo: "Hello-World", number: 40, reason: "a candidate repeated 2 times" };
    await stack.crewbot.services.records.proposeLearnings(request);
    await stack.crewbot.services.records.proposeLearnings({ ...request, number: 41 });
    const queued = await stack.crewbot.queue.listRecent();
    expect(queued.map((j) => [j.kind, j.target.number, j.learn])).toEqual([["learn", 40, { action: "propose", automatic: true, reason: "a candidate repeated 2 times" }]]);

    const sql = (await store.candidates(KEY))[0]!;
    script.push({ content: [use("submit_learnings", { learnings: [{ candidate: sql.key, text: RAW_SQL }] })] });
    mockInstallationToken();
    nock(API).get(REPO_PATH).reply(200, { default_branch: "main" }).get(`${REPO_PATH}/contents/.github%2Fcrewbot.yml`).reply(200, "", { "content-type": "text/plain; charset=utf-8" });
    mockReads({ files: [[MAIN, undefined]] });
    const sent = mockWrites({ branchExists: false });
    await stack.crewbot.runner.start();
    const job = await stack.waitFor(queued[0]!.id);
    expect(job.outcome).toBe(`✅ Done: Opened the learnings pull request (1 new learning(s), 0 proposed for removal): ${PR_URL}`);
    expect(sent[0]![1].tree[0].content).toBe(file(bullet(`${RAW_SQL} (2 dismissals: [#12](${threadUrl(12)}), [#40](${threadUrl(40)}))`, candidateLearningId(sql.key))));
    // The learner was asked about the due candidate alone; the other stays a candidate.
    expect(JSON.stringify(stack.fake.requests.at(-1)!.body.messages)).not.toContain("magic number");
    expect((await store.candidates(KEY)).map((c) => c.proposedIn)).toEqual([PR_URL, undefined]);
  });
});

describe("/crewbot learnings queued behind another job", () => {
  it("takes its \"⏳ Queued behind\" comment over: the list is written there, never left queued beside a second comment", async () => {
    const { stack } = await stackWithLearnings({ runner: false });
    const { queue } = stack.crewbot;
    const target = { installationId: INSTALLATION_ID, owner: "Codertocat", repo: "Hello-World", number: 1, isPullRequest: false };
    await queue.enqueue({ deliveryId: "ahead", kind: "plan", target, trigger: { sender: "Codertocat", request: "" }, repo: { cloneUrl: stack.cloneUrl, defaultBranch: "main", private: false } });
    const running = (await queue.claim("elsewhere", { perInstallation: 4, global: 4, leaseMs: 60_000 }))!;
    const payload = issueCommentCreated("/crewbot learnings", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const { posted: queued } = mockQueuedComment(payload.comment.id, 8804);
    mockRepoConfig();
    const edits: string[] = [];
    nock(API)
      .get(FILE_PATH)
      .query({ ref: "main" })
      .reply(200, encoded(file(bullet("Ask @octocat about migrations", "22222222"))))
      .get(`${REPO_PATH}/pulls`)
      .query(true)
      .reply(200, [])
      .patch(`${REPO_PATH}/issues/comments/8804`, (b) => (edits.push(b.body), true))
      .reply(200, {});
    await stack.probot.receive({ id: "learnings-queued", name: "issue_comment", payload } as never);
    await stack.crewbot.background.idle();
    const [job] = await queue.listRecent({ state: "queued" });
    expect(queued.body).toMatch(/^⏳ Queued behind job /);
    expect(job).toMatchObject({ progressCommentId: 8804 });

    await queue.finish(running.id, "succeeded", "✅ Done", { workerId: "elsewhere", attempt: running.attempts });
    await stack.crewbot.runner.start();
    const ended = await stack.waitFor(job!.id);
    await stack.crewbot.background.idle();
    await stack.crewbot.runner.stop({ drain: false, timeoutMs: 1000 });

    expect(ended).toMatchObject({ state: "succeeded", outcome: "✅ Done: listed 1 learning(s)" });
    expect(edits).toHaveLength(1);
    expect(edits[0]).toMatch(/^\*\*1 learning\*\* merged on `main`/);
  });
});
