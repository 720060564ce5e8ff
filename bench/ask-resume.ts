/**
 * Resume after a question, printed by `npm run bench` (`BENCH_ONLY=ask`): a /plan whose planner
 * asks the requester (`ask_user`), then a signed `issue_comment.edited` ticking the second option.
 * Figure: that webhook → the planner's next model request (goal < 2 s), which includes the queue's
 * claim and a fresh checkout of the same commit from the warm mirror. The model answers at once,
 * GitHub is nock answering at once, git a local HTTP git server.
 */
import { performance } from "node:perf_hooks";
import nock from "nock";
import { issueCommentCreated, issueCommentEdited, REPO_NAME, REPO_OWNER } from "../test/fixtures/payloads.js";
import { startFakeAnthropic } from "../test/helpers/fake-anthropic.js";
import { startGitHttpServer } from "../test/helpers/git-http-server.js";
import { makeRepo, tempDir } from "../test/helpers/git-repo.js";
import { API, boot, mockGitHub, REPO, TOKEN } from "./app.js";

const PLAN = "## Goal\nStore it.\n\n## Plan\n1. Add the store\n\n## Risks\nNone.";

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const t0 = performance.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() - t0 > ms) throw new Error(`bench ask: ${what} did not happen within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export async function askResumeBench(): Promise<string> {
  const root = await tempDir("crewbot-bench-served-");
  const git = await startGitHttpServer({ root, token: TOKEN });
  await makeRepo({ "README.md": "# store\n" }, `${root}/${REPO_OWNER}/${REPO_NAME}.git`);
  const asked: number[] = [];
  const fake = await startFakeAnthropic((_request, index) => {
    asked.push(performance.now());
    if (index === 0) return { text: "Scout: no store yet." };
    if (index === 1) return { content: [{ type: "tool_use", name: "ask_user", input: { question: "Which database?", options: ["SQLite", "Postgres"] } }] };
    return index === 2 ? { text: PLAN } : undefined;
  });
  const questions: string[] = [];
  // Before mockGitHub's catch-all: the question comment's body, to tick it.
  nock(API)
    .persist()
    .post(`${REPO}/issues/1/comments`, (body: { body: string }) => (body.body.includes("crewbot:question:") ? (questions.push(body.body), true) : false))
    .reply(201, { id: 6001 });
  mockGitHub([], { count: 0 });
  const { started, post } = await boot(true, fake.url);
  const queue = started.crewbot!.queue;
  try {
    const cloneUrl = git.cloneUrl(REPO_OWNER, REPO_NAME);
    if ((await post(issueCommentCreated("/plan store the data", { cloneUrl, defaultBranch: "main" }))) !== 200) throw new Error("the /plan webhook failed");
    const job = await until("the question", async () => (await queue.listRecent({ limit: 1 })).find((j) => j.wait && j.state === "queued"));
    const body = questions[0]!;
    let seen = 0;
    const ticked = body.split("\n").map((l) => (l.startsWith("- [ ] ") && ++seen === 2 ? `- [x] ${l.slice(6)}` : l)).join("\n");
    const edited = issueCommentEdited(body, ticked);
    edited.comment.id = job.wait!.commentId;
    edited.repository.clone_url = cloneUrl;
    edited.repository.default_branch = "main";
    const t0 = performance.now();
    if ((await post(edited, "issue_comment")) !== 200) throw new Error("the tick webhook failed");
    const next = await until("the planner's next model request", async () => asked[2]);
    const end = await until("the job's end", async () => {
      const now = await queue.get(job.id);
      return now && ["succeeded", "failed", "cancelled"].includes(now.state) ? now : undefined;
    });
    const ms = next - t0;
    return (
      `ask_user resume: the tick's webhook → the planner's next model request ${ms.toFixed(0)} ms (goal < 2000 ms) ${ms < 2000 ? "✓" : "✗"}, ` +
      `fresh checkout from the warm mirror included; ${fake.requests.length} model requests in all (3 expected: none repeated) — ${end.state}: ${end.outcome ?? ""}`
    );
  } finally {
    await started.stop();
    nock.cleanAll();
    await git.close();
    await fake.close().catch(() => undefined);
  }
}
