/**
 * Installation tokens by their `expires_at`, and a 401 answered with one new token: through the
 * real Probot auth (nock as GitHub's token endpoint) and a real git server that accepts only the
 * token it is told to.
 */
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import nock from "nock";
import type { Probot } from "probot";
import { describe, expect, it, vi } from "vitest";
import { composeCrewbot } from "../../src/app/compose.js";
import { installationToken, RENEW_BEFORE_MS } from "../../src/github/installation-token.js";
import { githubProbot } from "../../src/github/octokit.js";
import type { InstallationOctokit } from "../../src/github/types.js";
import { makeCheckout } from "../../src/workspace/checkout.js";
import { commitStep } from "../../src/workspace/commit.js";
import { MirrorStore } from "../../src/workspace/mirror.js";
import { pushBranch, TokenRefusedError, type TokenProvider } from "../../src/workspace/push.js";
import { INSTALLATION_ID } from "../fixtures/payloads.js";
import { PRIVATE_KEY, TestOctokit } from "../helpers/app-stand-ins.js";
import { gitSync, tempDir } from "../helpers/git-repo.js";
import { API, useNock } from "../helpers/github.js";
import { serve } from "../workspace/fixture.js";

useNock();

const token = () => `ghs_${randomBytes(18).toString("hex")}`;
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();
const BOT = { name: "crewbot[bot]", email: "1+crewbot[bot]@users.noreply.github.com" };

function probot(env: NodeJS.ProcessEnv = {}): Probot {
  return githubProbot({ env: { APP_ID: "1", PRIVATE_KEY, LOG_LEVEL: "fatal", ...env }, Octokit: TestOctokit });
}

/** GitHub's token endpoint minting `tokens` in turn, each expiring as given; records what it minted. */
function mintTokens(...tokens: Array<{ token: string; minutes: number }>): { minted: string[] } {
  const minted: string[] = [];
  for (const t of tokens) {
    nock(API)
      .post(`/app/installations/${INSTALLATION_ID}/access_tokens`)
      .reply(201, () => (minted.push(t.token), { token: t.token, expires_at: inMinutes(t.minutes), permissions: { contents: "write" } }));
  }
  return { minted };
}

/**
 * Caches the installation's first token as minted 10 minutes ago: @octokit/auth-app retries a 401
 * on a token younger than 5 s itself (GitHub's replication delay), which a revoked token is not.
 */
async function mintedEarlier(octokit: InstallationOctokit): Promise<void> {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - 10 * 60_000 });
  try {
    await installationToken(octokit);
  } finally {
    vi.useRealTimers();
  }
}

/** A remote that accepts only `accepted`, with a committed change in a checkout ready to push. */
async function pushable(accepted: string) {
  const served = await serve(accepted, { receivePack: true });
  const src = await served.repo("octo", "demo", { "README.md": "# demo\n" });
  const lease = await new MirrorStore({ dataDir: served.dataDir }).sync({ owner: "octo", repo: "demo", cloneUrl: src.cloneUrl, token: accepted });
  const co = await makeCheckout({ mirror: lease.path, ref: "main", dest: path.join(served.dataDir, "jobs", "j1", "work"), cloneUrl: src.cloneUrl });
  await lease.release();
  await writeFile(path.join(co.path, "b.txt"), "b\n");
  await commitStep({ checkout: co.path, author: BOT, step: "Add b" });
  const authorized = () => served.server.requests.filter((r) => r.authorized).length;
  const refused = () => served.server.requests.filter((r) => r.status === 401).length;
  return { src, co, authorized, refused, target: { checkout: co.path, cloneUrl: src.cloneUrl, defaultBranch: "main" } };
}

/** A provider as a job has it (services.tokenFor through the installation's Octokit), recording each call. */
function provider(octokit: InstallationOctokit, calls: Array<{ renew?: boolean }> = []): TokenProvider {
  return async (options = {}) => {
    calls.push(options);
    return (await installationToken(octokit, options)).token;
  };
}

describe("installation tokens by their expires_at", () => {
  it("replaces a token 9 minutes from expiry before a push, and keeps one with 11 minutes left", async () => {
    const dying = token();
    const fresh = token();
    const { minted } = mintTokens({ token: dying, minutes: 9 }, { token: fresh, minutes: 60 });
    const app = probot();
    const octokit = (await app.auth(INSTALLATION_ID)) as InstallationOctokit;
    // The job's first token came from the cache and has 9 minutes left: never used for the push.
    const { src, target, refused } = await pushable(fresh);
    const pushed = await pushBranch({ ...target, token: provider(octokit), branch: "crewbot/issue-1-b" });
    expect(pushed.pushed).toBe(true);
    expect(minted).toEqual([dying, fresh]);
    expect(refused()).toBe(0); // the dying token was never sent
    expect(gitSync(src.dir, "rev-parse", "crewbot/issue-1-b").trim()).toBe(pushed.sha);
    // The new token is now the installation's cached one, and with 60 minutes left it is kept.
    expect((await installationToken(octokit)).token).toBe(fresh);

    const lasting = token();
    mintTokens({ token: lasting, minutes: 11 });
    const other = (await probot().auth(INSTALLATION_ID)) as InstallationOctokit;
    expect(await installationToken(other)).toMatchObject({ token: lasting });
    expect(await installationToken(other)).toMatchObject({ token: lasting }); // cached, no second mint (nock would fail)
  });

  it("renews at exactly RENEW_BEFORE_MS left, by the clock it is given", async () => {
    const first = token();
    const second = token();
    mintTokens({ token: first, minutes: 60 }, { token: second, minutes: 60 });
    const octokit = (await probot().auth(INSTALLATION_ID)) as InstallationOctokit;
    const { expiresAt } = await installationToken(octokit);
    expect((await installationToken(octokit, { now: () => expiresAt! - RENEW_BEFORE_MS - 1 })).token).toBe(first);
    expect((await installationToken(octokit, { now: () => expiresAt! - RENEW_BEFORE_MS + 1 })).token).toBe(second);
  });
});

describe("a push answered 401", () => {
  it("is retried once with a newly minted token, and then succeeds", async () => {
    const revoked = token();
    const fresh = token();
    const { minted } = mintTokens({ token: revoked, minutes: 55 }, { token: fresh, minutes: 60 });
    const octokit = (await probot().auth(INSTALLATION_ID)) as InstallationOctokit;
    const { src, target, refused } = await pushable(fresh);
    const calls: Array<{ renew?: boolean }> = [];
    const pushed = await pushBranch({ ...target, token: provider(octokit, calls), branch: "crewbot/issue-2-b" });
    expect(pushed.pushed).toBe(true);
    expect(calls).toEqual([{}, { renew: true }]);
    expect(minted).toEqual([revoked, fresh]);
    expect(refused()).toBeGreaterThan(0);
    expect(gitSync(src.dir, "rev-parse", "crewbot/issue-2-b").trim()).toBe(pushed.sha);
  });

  it("fails on a second 401 with a message naming the token, not the app's permissions", async () => {
    const { minted } = mintTokens({ token: token(), minutes: 55 }, { token: token(), minutes: 60 });
    const octokit = (await probot().auth(INSTALLATION_ID)) as InstallationOctokit;
    const { src, target } = await pushable(token()); // accepts neither
    const calls: Array<{ renew?: boolean }> = [];
    const failure = await pushBranch({ ...target, token: provider(octokit, calls), branch: "crewbot/issue-3-b" }).catch((e: Error) => e);
    expect(failure).toBeInstanceOf(TokenRefusedError);
    expect((failure as Error).message).toBe(
      "pushing to crewbot/issue-3-b failed: GitHub refused the installation token, and a newly minted one too (401): the token was revoked or the app lost access to this repository",
    );
    expect((failure as Error).message).not.toMatch(/contents: write/);
    expect(calls).toEqual([{}, { renew: true }]); // once retried, never a third time
    expect(minted).toHaveLength(2);
    for (const t of minted) expect(JSON.stringify(failure) + (failure as Error).message).not.toContain(t);
    expect(gitSync(src.dir, "branch", "--list", "crewbot/issue-3-b").trim()).toBe("");
  });
});

describe("a REST call answered 401", () => {
  it("a read is retried once with a new token, which later requests use too", async () => {
    const revoked = token();
    const fresh = token();
    mintTokens({ token: revoked, minutes: 55 }, { token: fresh, minutes: 60 });
    const seen: string[] = [];
    const auth = function (this: { req: { headers: Record<string, string> } }) {
      seen.push(this.req.headers.authorization!);
    };
    nock(API)
      .get("/repos/o/r")
      .reply(function () {
        auth.call(this as never);
        return [401, { message: "Bad credentials" }];
      })
      .get("/repos/o/r")
      .times(2)
      .reply(function () {
        auth.call(this as never);
        return [200, { full_name: "o/r" }];
      });
    const octokit = (await probot().auth(INSTALLATION_ID)) as InstallationOctokit;
    await mintedEarlier(octokit);
    expect((await octokit.request("GET /repos/{owner}/{repo}", { owner: "o", repo: "r" })).data).toEqual({ full_name: "o/r" });
    await octokit.request("GET /repos/{owner}/{repo}", { owner: "o", repo: "r" });
    expect(seen).toEqual([`token ${revoked}`, `token ${fresh}`, `token ${fresh}`]);
  });

  it("a read refused again with the new token fails naming the token, after one retry", async () => {
    mintTokens({ token: token(), minutes: 55 }, { token: token(), minutes: 60 });
    const octokit = (await probot().auth(INSTALLATION_ID)) as InstallationOctokit;
    await mintedEarlier(octokit);
    // Each answer moves the clock on 10 s. The old token's 401, then the new one's twice: auth-app
    // itself tries a token younger than 5 s once more (replication delay), then gives up.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    nock(API)
      .get("/repos/o/r")
      .times(3)
      .reply(() => (vi.setSystemTime(Date.now() + 10_000), [401, { message: "Bad credentials" }]));
    try {
      const failure = await octokit.request("GET /repos/{owner}/{repo}", { owner: "o", repo: "r" }).catch((e: Error & { status?: number }) => e);
      expect(failure).toMatchObject({ status: 401 });
      expect((failure as Error).message).toMatch(/^GitHub refused the installation token \(401\) even after a new one was minted: the token was revoked or the app lost access to this installation/);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a write answered 401 gets a new token through the writer's refreshAuth, and is sent once more", async () => {
    const revoked = token();
    const fresh = token();
    mintTokens({ token: revoked, minutes: 55 }, { token: fresh, minutes: 60 });
    const seen: string[] = [];
    nock(API)
      .patch("/repos/o/r/issues/comments/7")
      .times(2)
      .reply(function () {
        const authorization = String(this.req.headers.authorization);
        seen.push(authorization);
        return authorization === `token ${fresh}` ? [200, { id: 7 }] : [401, { message: "Bad credentials" }];
      });
    const app = probot();
    await app.load(() => {});
    const dataDir = await tempDir("crewbot-data-");
    const crewbot = composeCrewbot(app, { env: { CREWBOT_DATA_DIR: dataDir, LOG_LEVEL: "silent" } });
    try {
      const octokit = await crewbot.services.github.octokitFor(INSTALLATION_ID);
      await mintedEarlier(octokit);
      const writer = crewbot.services.github.writerFor(INSTALLATION_ID, octokit);
      const res = await writer.write("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", { owner: "o", repo: "r", comment_id: 7, body: `final ${fresh}` });
      expect(res.status).toBe(200);
      expect(seen).toEqual([`token ${revoked}`, `token ${fresh}`]);
    } finally {
      await crewbot.close();
    }
  });
});

describe("a token GitHub will not mint", () => {
  it("names the cause: an uninstalled app", async () => {
    nock(API).post(`/app/installations/${INSTALLATION_ID}/access_tokens`).reply(404, { message: "Not Found" });
    const octokit = (await probot().auth(INSTALLATION_ID)) as InstallationOctokit;
    const failure = await installationToken(octokit).catch((e: Error & { status?: number }) => e);
    expect(failure).toMatchObject({ status: 404 });
    expect((failure as Error).message).toMatch(/^GitHub would not mint an installation token \(404\): the app is no longer installed there/);
  });
});
