import nock from "nock";
import { describe, expect, it } from "vitest";
import { fitBody, GitHubWriter, rateLimitWaitMs } from "../../src/report/github-writer.js";
import { REDACTED } from "../../src/secrets/redact.js";
import { jobMarker } from "../../src/report/types.js";
import { API, fakeClock, newOctokit, TOKEN, useNock } from "../helpers/github.js";

useNock();

const COMMENTS = "/repos/o/r/issues/7/comments";
const route = "POST /repos/{owner}/{repo}/issues/{issue_number}/comments";
const params = (body: string) => ({ owner: "o", repo: "r", issue_number: 7, body });
const secondary = { message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.", documentation_url: "https://docs.github.com/rest" };

function setup(extra: { secrets?: string[]; maxRetries?: number } = {}) {
  const clock = fakeClock();
  const warnings: string[] = [];
  const writer = new GitHubWriter({ octokit: newOctokit(), clock, secrets: [TOKEN, ...(extra.secrets ?? [])], maxRetries: extra.maxRetries, log: { warn: (m) => warnings.push(m), error: (m) => warnings.push(m) } });
  return { clock, writer, warnings, start: clock.now() };
}

describe("GitHubWriter", () => {
  it("sends writes one at a time, in order, at least a second apart", async () => {
    const { clock, writer, start } = setup();
    const seen: Array<{ body: string; at: number }> = [];
    nock(API)
      .post(COMMENTS)
      .times(5)
      .reply(201, (_uri, body) => {
        seen.push({ body: (body as { body: string }).body, at: clock.now() });
        return { id: seen.length };
      });
    const results = await Promise.all([1, 2, 3, 4, 5].map((i) => writer.write<{ id: number }>(route, params(`b${i}`))));
    expect(results.map((r) => r.data.id)).toEqual([1, 2, 3, 4, 5]);
    expect(seen.map((s) => s.body)).toEqual(["b1", "b2", "b3", "b4", "b5"]);
    expect(clock.now() - start).toBeGreaterThanOrEqual(4 * 1000);
    for (let i = 1; i < seen.length; i += 1) expect(seen[i]!.at - seen[i - 1]!.at).toBeGreaterThanOrEqual(1000);
    expect(writer.writes).toBe(5);
  });

  it("does not delay reads", async () => {
    const { clock, writer, start } = setup();
    nock(API).post(COMMENTS).reply(201, { id: 1 });
    nock(API).get("/repos/o/r/collaborators/alice/permission").times(3).reply(200, { permission: "write" });
    await writer.write(route, params("x"));
    for (let i = 0; i < 3; i += 1) {
      const res = await writer.read<{ permission: string }>("GET /repos/{owner}/{repo}/collaborators/{username}/permission", { owner: "o", repo: "r", username: "alice" });
      expect(res.data.permission).toBe("write");
    }
    expect(clock.sleeps).toEqual([]);
    expect(clock.now()).toBe(start);
    expect(writer.writes).toBe(1);
  });

  it("waits `retry-after` seconds after a secondary rate limit (403), then retries", async () => {
    const { clock, writer, warnings, start } = setup();
    nock(API).post(COMMENTS).reply(403, secondary, { "retry-after": "3" });
    nock(API).post(COMMENTS).reply(201, { id: 9 });
    const res = await writer.write<{ id: number }>(route, params("x"));
    expect(res.data.id).toBe(9);
    expect(clock.sleeps).toEqual([3000]);
    expect(clock.now() - start).toBe(3000);
    expect(writer.writes).toBe(2);
    expect(writer.retries).toBe(1);
    expect(warnings).toEqual([expect.stringContaining("retrying in 3 s")]);
  });

  it("waits after a 429 too", async () => {
    const { clock, writer } = setup();
    nock(API).post(COMMENTS).reply(429, { message: "Too many requests" }, { "retry-after": "5" });
    nock(API).post(COMMENTS).reply(201, { id: 1 });
    await writer.write(route, params("x"));
    expect(clock.sleeps).toEqual([5000]);
  });

  it("waits until x-ratelimit-reset when no requests remain", async () => {
    const { clock, writer, start } = setup();
    const reset = Math.floor(start / 1000) + 30;
    nock(API).post(COMMENTS).reply(403, { message: "API rate limit exceeded for installation ID 1." }, { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) });
    nock(API).post(COMMENTS).reply(201, { id: 1 });
    await writer.write(route, params("x"));
    expect(clock.sleeps).toEqual([reset * 1000 - start]);
  });

  it("gives up after a bounded number of retries and throws the last error", async () => {
    const { writer, clock } = setup({ maxRetries: 2 });
    nock(API).post(COMMENTS).times(3).reply(403, secondary);
    await expect(writer.write(route, params("x"))).rejects.toMatchObject({ status: 403 });
    expect(writer.writes).toBe(3);
    expect(clock.sleeps).toEqual([60_000, 120_000]); // no retry-after: a minute, then longer
  });

  it.each([
    [422, { message: "Validation Failed" }],
    [403, { message: "Resource not accessible by integration" }],
    [404, { message: "Not Found" }],
  ])("never retries a %s", async (status, data) => {
    const { writer, clock } = setup();
    nock(API).post(COMMENTS).reply(status, data);
    await expect(writer.write(route, params("x"))).rejects.toMatchObject({ status });
    expect(writer.writes).toBe(1);
    expect(clock.sleeps).toEqual([]);
  });

  it("a write answered 401 gets a new token and is sent once more", async () => {
    const clock = fakeClock();
    let refreshed = 0;
    const writer = new GitHubWriter({ octokit: newOctokit(), clock, refreshAuth: async () => void (refreshed += 1) });
    nock(API).post(COMMENTS, { body: "x" }).reply(401, { message: "Bad credentials" });
    nock(API).post(COMMENTS, { body: "x" }).reply(201, { id: 5 });
    const res = await writer.write<{ id: number }>(route, params("x"));
    expect(res.data.id).toBe(5);
    expect(refreshed).toBe(1);
    expect(writer.writes).toBe(2);
  });

  it("a second 401 fails naming the expired or revoked installation token, and is not retried again", async () => {
    const clock = fakeClock();
    let refreshed = 0;
    const writer = new GitHubWriter({ octokit: newOctokit(), clock, refreshAuth: async () => void (refreshed += 1) });
    nock(API).post(COMMENTS).times(2).reply(401, { message: "Bad credentials" });
    const failure = writer.write(route, params("x"));
    await expect(failure).rejects.toMatchObject({ status: 401 });
    await expect(failure).rejects.toThrow(/installation token expired or was revoked/);
    expect(refreshed).toBe(1);
    expect(writer.writes).toBe(2);
  });

  it("each write gets its own new-token retry", async () => {
    const clock = fakeClock();
    let refreshed = 0;
    const writer = new GitHubWriter({ octokit: newOctokit(), clock, refreshAuth: async () => void (refreshed += 1) });
    nock(API).post(COMMENTS).reply(401, { message: "Bad credentials" });
    nock(API).post(COMMENTS).reply(201, { id: 1 });
    nock(API).post(COMMENTS).reply(401, { message: "Bad credentials" });
    nock(API).post(COMMENTS).reply(201, { id: 2 });
    await writer.write(route, params("a"));
    await writer.write(route, params("b"));
    expect(refreshed).toBe(2);
  });

  it("without refreshAuth a 401 is thrown unchanged", async () => {
    const { writer } = setup();
    nock(API).post(COMMENTS).reply(401, { message: "Bad credentials" });
    await expect(writer.write(route, params("x"))).rejects.toMatchObject({ status: 401 });
    expect(writer.writes).toBe(1);
  });

  it("renders a body given as a function when the write is sent", async () => {
    const { writer } = setup();
    let text = "old";
    nock(API).post(COMMENTS).reply(201, { id: 1 });
    nock(API).post(COMMENTS, { body: `new ${REDACTED}` }).reply(201, { id: 2 });
    const first = writer.write(route, params("first"));
    const second = writer.write(route, { owner: "o", repo: "r", issue_number: 7, body: () => `${text} ${TOKEN}` });
    text = "new";
    await Promise.all([first, second]);
  });

  it("keeps going after a failed write: the next one is still sent, spaced", async () => {
    const { writer, clock, start } = setup();
    nock(API).post(COMMENTS).reply(422, { message: "Validation Failed" });
    nock(API).post(COMMENTS).reply(201, { id: 2 });
    const [first, second] = await Promise.allSettled([writer.write(route, params("a")), writer.write(route, params("b"))]);
    expect(first.status).toBe("rejected");
    expect(second.status).toBe("fulfilled");
    expect(clock.now() - start).toBe(1000);
  });

  it("redacts tokens and the secrets it was given from every string it sends, nested ones too", async () => {
    const { writer } = setup({ secrets: ["webhook-secret-value"] });
    let received: unknown;
    nock(API)
      .post("/repos/o/r/pulls/3/reviews")
      .reply(200, (_uri, body) => {
        received = body;
        return { id: 1 };
      });
    await writer.write("POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews", {
      owner: "o",
      repo: "r",
      pull_number: 3,
      event: "COMMENT",
      body: `token ${TOKEN} and ghs_${"a".repeat(36)}`,
      comments: [{ path: "a.ts", line: 2, body: "secret: webhook-secret-value" }],
    });
    expect(received).toEqual({
      event: "COMMENT",
      body: `token ${REDACTED} and ${REDACTED}`,
      comments: [{ path: "a.ts", line: 2, body: `secret: ${REDACTED}` }],
    });
  });

  it("cuts an over-long body under GitHub's limit, keeping its start, end and marker", async () => {
    const { writer } = setup();
    let received = "";
    nock(API)
      .post(COMMENTS)
      .reply(201, (_uri, body) => {
        received = (body as { body: string }).body;
        return { id: 1 };
      });
    const body = `first line\n${"z".repeat(35_000)}\n${jobMarker("j1")}\n${"z".repeat(35_000)}\nlast line`;
    await writer.write(route, params(body));
    expect(received.length).toBeLessThan(65_536);
    expect(received.startsWith("first line\n")).toBe(true);
    expect(received.endsWith("\nlast line")).toBe(true);
    expect(received).toContain(jobMarker("j1"));
    expect(received).toMatch(/characters cut to fit GitHub's comment size limit/);
  });
});

describe("fitBody", () => {
  it("leaves a body that fits alone", () => {
    expect(fitBody("short")).toBe("short");
  });

  it("never leaves half an HTML comment that would hide the rest", () => {
    const body = `${"a".repeat(100)}<!-- ${"b".repeat(200)} -->tail`;
    const out = fitBody(body, 150);
    expect(out.length).toBeLessThanOrEqual(150);
    const open = out.lastIndexOf("<!--");
    expect(open === -1 || out.indexOf("-->", open) > open).toBe(true);
  });
});

describe("rateLimitWaitMs", () => {
  const err = (status: number, message: string, headers: Record<string, string> = {}) => ({ status, message, response: { headers, data: { message } } });
  it.each<[string, unknown, number | null]>([
    ["secondary with retry-after", err(403, "You have exceeded a secondary rate limit", { "retry-after": "3" }), 3000],
    ["secondary without headers", err(403, "You have exceeded a secondary rate limit"), 60_000],
    ["429 without headers", err(429, "Too Many Requests"), 60_000],
    ["plain 403", err(403, "Resource not accessible by integration"), null],
    ["422", err(422, "Validation Failed", { "retry-after": "3" }), null],
    ["network error", new Error("socket hang up"), null],
  ])("%s", (_name, error, expected) => {
    expect(rateLimitWaitMs(error, 0)).toBe(expected);
  });
});
