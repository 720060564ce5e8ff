/**
 * `/ask` on a ~50 MB repository, printed by `npm run bench` (`BENCH_ONLY=ask-answer`): a signed
 * `/ask` comment → its answer posted (the progress comment's terminal edit, its citation a
 * checked permalink), with an instant fake model that reads one file and answers. The first
 * question fills the mirror (cold); the figure is the next one's, from the warm mirror (goal < 3 s).
 * GitHub is nock answering at once, git a local HTTP git server.
 */
import { performance } from "node:perf_hooks";
import nock from "nock";
import { issueCommentCreated, REPO_NAME, REPO_OWNER } from "../test/fixtures/payloads.js";
import { startFakeAnthropic } from "../test/helpers/fake-anthropic.js";
import { startGitHttpServer } from "../test/helpers/git-http-server.js";
import { tempDir } from "../test/helpers/git-repo.js";
import { API, boot, mockGitHub, TOKEN } from "./app.js";
import { makeBigRepo } from "./checkout.js";

const SERVER = "import http from 'node:http';\nconst server = http.createServer(handle);\nserver.listen(3000);\n";

async function until<T>(what: string, probe: () => T | undefined, ms = 120_000): Promise<T> {
  const t0 = performance.now();
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (performance.now() - t0 > ms) throw new Error(`bench ask-answer: ${what} did not happen within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export async function askAnswerBench(): Promise<string> {
  const root = await tempDir("crewbot-bench-served-");
  const git = await startGitHttpServer({ root, token: TOKEN });
  const bytes = await makeBigRepo(`${root}/${REPO_OWNER}/${REPO_NAME}.git`, { "src/server.ts": SERVER });
  // Each question: one read, then the answer citing what it read.
  const fake = await startFakeAnthropic((request) =>
    (request.body.messages as unknown[]).length === 1
      ? { content: [{ type: "tool_use", name: "read", input: { path: "src/server.ts" } }] }
      : { text: "The server listens on port 3000: `src/server.ts#L2-L3`." },
  );
  const answers: Array<{ at: number; body: string }> = [];
  // Before mockGitHub's catch-all: the terminal edit, with the answer.
  nock(API)
    .persist()
    .patch(/\/issues\/comments\/\d+$/, (body: { body: string }) => (body.body.startsWith("✅ Done") || body.body.startsWith("❌") ? (answers.push({ at: performance.now(), body: body.body }), true) : false))
    .reply(200, {});
  mockGitHub([], { count: 0 });
  const { started, post } = await boot(true, fake.url);
  try {
    const cloneUrl = git.cloneUrl(REPO_OWNER, REPO_NAME);
    const ask = async (issue: number): Promise<{ ms: number; body: string }> => {
      const payload = issueCommentCreated("/ask where does the server listen?", { cloneUrl, defaultBranch: "main" });
      payload.issue.number = issue;
      payload.repository.size = Math.round(bytes / 1024);
      const seen = answers.length;
      const t0 = performance.now();
      if ((await post(payload)) !== 200) throw new Error("the /ask webhook failed");
      const answer = await until("the answer", () => answers[seen]);
      return { ms: answer.at - t0, body: answer.body };
    };
    const cold = await ask(1);
    // The installation's writes are spaced a second apart: the next question comes after the last answer's spacing, as a person's would.
    await new Promise((r) => setTimeout(r, 1500));
    const warm = await ask(2);
    const linked = /\]\([^)]*\/blob\/[0-9a-f]{40}\/src\/server\.ts#L2-L3\)/.test(warm.body);
    return (
      `/ask on a ${(bytes / 1024 ** 2).toFixed(0)} MB repository, instant model: comment → answer posted ${warm.ms.toFixed(0)} ms with a warm mirror ` +
      `(goal < 3000 ms) ${warm.ms < 3000 && linked ? "✓" : "✗"}, ${cold.ms.toFixed(0)} ms cold; ${linked ? "its citation a checked permalink" : `no permalink in the answer: ${warm.body.split("\n")[0]}`}`
    );
  } finally {
    await started.stop();
    nock.cleanAll();
    await git.close();
    await fake.close().catch(() => undefined);
  }
}
