import nock from "nock";
import { afterEach, describe, expect, it } from "vitest";
import { start, type Started } from "../../src/main.js";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { freePort, signWebhook } from "../helpers/app-stand-ins.js";
import { startFakeAnthropic, type FakeServer } from "../helpers/fake-anthropic.js";
import { tempDir } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { API, gitServer, mockInstallationToken, mockPermission, mockRepoConfig, REPO_PATH, stackEnv, TestOctokit, TOKEN, WEBHOOK_SECRET } from "./harness.js";

useNock();

const sign = (body: string, secret = WEBHOOK_SECRET) => signWebhook(body, secret);

let started: Started | undefined;
let fake: FakeServer | undefined;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await started?.stop();
  await fake?.close();
  await Promise.all(closers.splice(0).map((c) => c()));
  started = undefined;
  fake = undefined;
});

async function boot(script: Parameters<typeof startFakeAnthropic>[0] = []) {
  fake = await startFakeAnthropic(script);
  const port = await freePort();
  const env = { ...stackEnv(await tempDir("crewbot-data-"), fake.url), PORT: String(port), HOST: "127.0.0.1" };
  started = await start({ env, Octokit: TestOctokit, runner: { pollMs: 50, leaseMs: 4000, heartbeatMs: 500 } });
  const post = (body: string, headers: Record<string, string>) =>
    fetch(`http://127.0.0.1:${port}/api/github/webhooks`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "x-github-event": "issue_comment", ...headers },
    });
  return { port, post };
}

describe("the real server", () => {
  it("refuses a bad signature and malformed JSON without making a job", async () => {
    const { post } = await boot();
    const body = JSON.stringify(issueCommentCreated("/plan"));
    const bad = await post(body, { "x-github-delivery": "bad-sig", "x-hub-signature-256": sign(body, "wrong") });
    expect(bad.status).toBe(400);
    const broken = "{not json";
    const malformed = await post(broken, { "x-github-delivery": "broken", "x-hub-signature-256": sign(broken) });
    expect(malformed.status).toBe(400);
    expect(await started!.crewbot!.queue.listRecent()).toEqual([]);
  });

  it("takes a signed /plan webhook over HTTP, answers at once and posts exactly the plan", async () => {
    const { git, cloneUrl } = await gitServer({ "README.md": "# Hello\n" });
    closers.push(() => git.close());
    const { post } = await boot([{ text: "Scout report." }, { text: "## Plan\n1. Do it\n2. Test it" }]);
    const payload = issueCommentCreated("/plan", { cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockPermission("Codertocat", "write"); // asked once: the job reuses the trigger's answer
    mockRepoConfig();
    const writes: Array<[string, string | undefined]> = [];
    nock(API)
      .post(`${REPO_PATH}/issues/comments/${payload.comment.id}/reactions`, (b) => (writes.push(["react", b.content]), true))
      .reply(201, {})
      .post(`${REPO_PATH}/issues/1/comments`, (b) => (writes.push(["comment", b.body]), true))
      .reply(201, { id: 31 })
      .get(`${REPO_PATH}/issues/1/comments`)
      .query(true)
      .reply(200, [])
      .patch(`${REPO_PATH}/issues/comments/31`, (b) => (writes.push(["edit", b.body]), true))
      .times(4)
      .optionally()
      .reply(200, {});

    const body = JSON.stringify(payload);
    // Answered as soon as the job is queued (the latency is the bench's to measure, not a test's).
    const res = await post(body, { "x-github-delivery": "http-1", "x-hub-signature-256": sign(body) });
    expect(res.status).toBe(200);

    const [job] = await started!.crewbot!.queue.listRecent();
    for (let i = 0; i < 300 && !["succeeded", "failed"].includes((await started!.crewbot!.queue.get(job!.id))!.state); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await started!.crewbot!.background.idle();
    const final = (await started!.crewbot!.queue.get(job!.id))!;
    expect(final.outcome).toMatch(/^✅ Done/);
    expect(writes[0]).toEqual(["react", "eyes"]);
    expect(writes[1]![0]).toBe("comment");
    const last = writes.at(-1)!;
    expect(last[0]).toBe("edit");
    expect(last[1]!.split("\n").slice(1).join("\n")).toBe(
      [
        `<!-- crewbot:job:${job!.id} -->`,
        "",
        `[Transcript](https://crewbot.example.com/jobs/${job!.id})`,
        "",
        "## Plan",
        "- [ ] Do it",
        "- [ ] Test it",
        "",
        "- [ ] Approve this plan and implement it",
      ].join("\n"),
    );
    expect(JSON.stringify(writes)).not.toContain(TOKEN);
  });
});

describe("GitHub Enterprise Server", () => {
  it("talks to GHE_HOST's API, not api.github.com", async () => {
    fake = await startFakeAnthropic([]);
    const port = await freePort();
    const env = { ...stackEnv(await tempDir("crewbot-data-"), fake.url), PORT: String(port), HOST: "127.0.0.1", GHE_HOST: "ghe.example.com" };
    started = await start({ env, Octokit: TestOctokit, worker: false });
    const ghe = "https://ghe.example.com/api/v3";
    nock(ghe)
      .post("/app/installations/4242/access_tokens")
      .reply(201, { token: TOKEN, expires_at: new Date(Date.now() + 3600_000).toISOString() })
      .get(`${REPO_PATH}/collaborators/Codertocat/permission`)
      .reply(200, { permission: "admin", role_name: "admin" });
    const body = JSON.stringify(issueCommentCreated("/plan"));
    const res = await fetch(`http://127.0.0.1:${port}/api/github/webhooks`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "x-github-event": "issue_comment", "x-github-delivery": "ghe-1", "x-hub-signature-256": sign(body) },
    });
    expect(res.status).toBe(200);
    expect(await started.crewbot!.queue.listRecent()).toHaveLength(1);
  });
});
