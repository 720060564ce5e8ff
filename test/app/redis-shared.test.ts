/**
 * Several `npm start` replicas behind a load balancer, on one Redis: GitHub's redelivery of a
 * webhook reaching a second app instance is dropped there before any request (no permission lookup,
 * no reply, no job), and one person's command limit is one for all replicas.
 */
import nock from "nock";
import { describe, expect, it } from "vitest";
import { start, type Started } from "../../src/main.js";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { freePort, signWebhook } from "../helpers/app-stand-ins.js";
import { tempDir } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { API, mockInstallationToken, mockPermission, REPO_PATH, stackEnv, TestOctokit, WEBHOOK_SECRET, useRedisStack } from "./harness.js";

useNock();

const { redisUrl, stops } = useRedisStack();

/** `n` app instances (webhooks only, as with REDIS_URL) on one Redis prefix, each with its own data dir. */
async function replicas(n: number, env: NodeJS.ProcessEnv = {}): Promise<Array<{ app: Started; port: number }>> {
  const prefix = `crewbot-replicas-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const out = [];
  for (let i = 0; i < n; i++) {
    const port = await freePort();
    const base = { ...stackEnv(await tempDir("crewbot-replica-"), "http://127.0.0.1:9"), REDIS_URL: redisUrl(), REDIS_PREFIX: prefix, LOG_LEVEL: "error" as const, ...env };
    const app = await start({ env: { ...base, PORT: String(port), HOST: "127.0.0.1" }, Octokit: TestOctokit });
    stops.push(() => app.stop());
    out.push({ app, port });
  }
  return out;
}

async function deliver(port: number, payload: unknown, id: string): Promise<number> {
  const body = JSON.stringify(payload);
  const headers = { "content-type": "application/json", "x-github-event": "issue_comment", "x-github-delivery": id, "x-hub-signature-256": signWebhook(body, WEBHOOK_SECRET) };
  return (await fetch(`http://127.0.0.1:${port}/api/github/webhooks`, { method: "POST", body, headers })).status;
}

describe("app replicas on one Redis", () => {
  it("a redelivery to a second app instance makes no job and no request", async () => {
    const [one, two] = await replicas(2);
    const payload = issueCommentCreated("/plan", { defaultBranch: "main" });
    mockInstallationToken(1);
    mockPermission("Codertocat", "write", 1); // the first instance only: the second asks GitHub nothing
    expect(await deliver(one!.port, payload, "guid-shared-1")).toBe(200);
    expect(await deliver(two!.port, payload, "guid-shared-1")).toBe(200);
    const jobs = await two!.app.crewbot!.queue.listRecent();
    expect(jobs.map((j) => [j.deliveryId, j.kind, j.state])).toEqual([["guid-shared-1", "plan", "queued"]]);
  });

  it("one person's command limit holds across replicas: one 'Slow down' reply in all", async () => {
    const [one, two] = await replicas(2, { CREWBOT_COMMANDS_BURST: "2", CREWBOT_COMMANDS_PER_MINUTE: "1" });
    mockInstallationToken(2); // each instance mints its own
    mockPermission("Codertocat", "write", 2); // each instance's permission cache asks once
    const replies: string[] = [];
    nock(API).post(new RegExp(`^${REPO_PATH}/issues/1\\d/comments$`), (b) => (replies.push(b.body), true)).reply(201, { id: 900 });
    const targets = [one!, two!, one!, two!, one!];
    for (const [i, r] of targets.entries()) {
      const payload = issueCommentCreated("/plan", { defaultBranch: "main" });
      payload.issue.number = 10 + i; // one job per issue: none waits behind another
      expect(await deliver(r.port, payload, `guid-limit-${i}`)).toBe(200);
    }
    await Promise.all([one!.app.crewbot!.background.idle(), two!.app.crewbot!.background.idle()]);
    expect((await one!.app.crewbot!.queue.listRecent()).length).toBe(2);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatch(/^Slow down, @\u200BCodertocat: crewbot takes at most 2 commands at once from one person, then 1 a minute\./);
  });
});
