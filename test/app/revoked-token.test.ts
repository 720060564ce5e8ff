/**
 * A job whose installation token GitHub stops accepting part-way (revoked, or expired early):
 * the push is tried once more with a newly minted token, and when GitHub refuses that one too the
 * job ends naming the token — not the app's permissions — with the finished work kept; accepted,
 * the job goes on to its pull request.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import nock from "nock";
import { afterEach, describe, expect, it } from "vitest";
import { issueCommentCreated } from "../fixtures/payloads.js";
import type { RecordedRequest, Script } from "../helpers/fake-anthropic.js";
import { useNock } from "../helpers/github.js";
import { API, INSTALLATION_ID, mockBotUser, mockInstallationToken, mockJobComments, mockPermission, REPO_PATH, startStack, TOKEN } from "./harness.js";

useNock();

const PLAN = "## Goal\nFix the typo.\n\n## Plan\n1. Fix the README";
const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });

/**
 * GitHub's git endpoint in front of the stack's git server (which accepts only the harness's
 * TOKEN): once `revoked`, a request is a 401, as GitHub answers a dead token — unless it carries
 * `renewed`, a token minted afterwards, which is passed on as the one the server knows.
 */
async function revocableGit(upstream: string, renewed?: string) {
  const state = { revoked: false, refused: 0 };
  const header = (token: string) => `Basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`;
  const server = http.createServer((req, res) => {
    if (renewed && req.headers.authorization === header(renewed)) req.headers.authorization = header(TOKEN);
    else if (state.revoked) {
      state.refused += 1;
      req.resume();
      res.writeHead(401, { "WWW-Authenticate": 'Basic realm="GitHub"', "Content-Type": "text/plain" });
      res.end("Invalid username or password.\n");
      return;
    }
    const up = http.request(new URL(req.url ?? "/", upstream), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, state };
}

/**
 * An /implement whose git server starts refusing the token once the worker begins (its first
 * request comes after the clone); `renewed`, when given, is the one token accepted after that.
 */
async function implementWithRevokedToken(renewed?: string) {
  let git: Awaited<ReturnType<typeof revocableGit>> | undefined;
  const replies = [
    { text: "Scout report." },
    { text: PLAN },
    { content: [use("edit", { path: "README.md", oldText: "commmit", newText: "commit" })] },
    { text: "[DONE:1]\n## Completed\nFixed.\n## Files Changed\n- README.md\n## Notes\nNone." },
  ];
  const script: Script = (_request: RecordedRequest, index: number) => {
    if (index === 2) git!.state.revoked = true;
    return replies[index];
  };
  const stack = await startStack(script, { files: { "README.md": "# Hello commmit\n" } });
  git = await revocableGit(stack.git.url, renewed);
  const payload = issueCommentCreated("/implement", { cloneUrl: stack.cloneUrl.replace(stack.git.url, git.url), defaultBranch: "main" });
  return { stack, git, payload };
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("an installation token revoked while a job runs", () => {
  it("is renewed once for the push; refused again, the job fails naming the token and keeps the commits", async () => {
    const { stack, git, payload } = await implementWithRevokedToken();
    mockInstallationToken(2); // the trigger's (reused by the job), and the one minted after the push's 401
    mockBotUser();
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    mockJobComments({ progressId: 79, edits, trigger: { id: payload.comment.id } });

    const job = await stack.runToEnd("issue_comment", payload, "implement-revoked");

    const branch = "crewbot/issue-1-spelling-error-in-the-readme-file";
    const reason = `pushing to ${branch} failed: GitHub refused the installation token, and a newly minted one too (401): the token was revoked or the app lost access to this repository`;
    expect(job.outcome!.startsWith(`❌ Failed: ${reason} · `)).toBe(true);
    expect(git.state.refused).toBeGreaterThanOrEqual(2); // the first token, then the new one
    const final = edits.at(-1)!;
    expect(final.split("\n")[0]).toContain(`❌ Failed: ${reason}`);
    expect(final).not.toMatch(/contents: write/);
    expect(final).toMatch(/commit is kept in this job's artifacts/);
  });

  it("succeeds with the token minted after the push's 401, and opens the pull request", async () => {
    const renewed = `ghs_renewed${"0".repeat(25)}`;
    const { stack, git, payload } = await implementWithRevokedToken(renewed);
    const expiresAt = new Date(Date.now() + 3600_000).toISOString();
    nock(API)
      .post(`/app/installations/${INSTALLATION_ID}/access_tokens`)
      .reply(201, { token: TOKEN, expires_at: expiresAt, permissions: {} })
      .post(`/app/installations/${INSTALLATION_ID}/access_tokens`)
      .reply(201, { token: renewed, expires_at: expiresAt, permissions: {} });
    mockBotUser();
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    let prBody: { body: string } | undefined;
    mockJobComments({ progressId: 80, edits, trigger: { id: payload.comment.id } })
      .post(`${REPO_PATH}/pulls`, (b) => ((prBody = b), true))
      .reply(201, { number: 14, html_url: "https://github.com/Codertocat/Hello-World/pull/14" });

    const job = await stack.runToEnd("issue_comment", payload, "implement-renewed");

    expect(job.outcome).toMatch(/^✅ Done/);
    expect(git.state.refused).toBe(1); // the revoked token once, then the renewed one went through
    expect(edits.at(-1)).toContain("Pull request [#14]");
    expect(JSON.stringify([edits, prBody])).not.toContain(renewed);
  });
});
