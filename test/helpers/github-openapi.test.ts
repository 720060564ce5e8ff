import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import nock from "nock";
import { afterEach, describe, expect, it } from "vitest";
import { githubRequestProblems, type CheckedRequest } from "./github-openapi.js";
import { checkedLikeGitHub, takeRefusals } from "./github-refusals.js";
import { API, newOctokit, TOKEN, useNock } from "./github.js";
import { tempDir } from "./git-repo.js";
import { schemaProblems, type Schema } from "./openapi-schema.js";

const GHE = "https://ghe.example.com";
const INSTALLATION = { authorization: `token ${TOKEN}` };
const APP_JWT = { authorization: "bearer eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiIxIn0.c2lnbmF0dXJl" };
const json = (method: string, url: string, body: unknown, headers: Record<string, string> = INSTALLATION): CheckedRequest => ({
  method,
  url,
  headers: { ...headers, "content-type": "application/json" },
  body: JSON.stringify(body),
});

describe("GitHub's description as a request checker", () => {
  it.each<[string, CheckedRequest]>([
    ["a comment", json("POST", `${API}/repos/o/r/issues/1/comments`, { body: "hi" })],
    ["a reaction", json("POST", `${API}/repos/o/r/issues/comments/5/reactions`, { content: "eyes" })],
    ["the config file, path encoded", { method: "GET", url: `${API}/repos/o/r/contents/.github%2Fcrewbot.yml`, headers: INSTALLATION }],
    ["a literal path beside a templated one", { method: "GET", url: `${API}/repos/o/r/pulls/comments?per_page=100`, headers: INSTALLATION }],
    ["a HEAD where a GET exists", { method: "HEAD", url: `${API}/repos/o/r`, headers: INSTALLATION }],
    ["a check run with output and annotations", json("POST", `${API}/repos/o/r/check-runs`, {
      name: "crewbot/review", head_sha: "a".repeat(40), status: "completed", conclusion: "neutral", completed_at: "2026-12-01T10:00:00Z",
      output: { title: "t", summary: "s", annotations: [{ path: "a.ts", start_line: 1, end_line: 2, annotation_level: "warning", message: "m" }] },
    })],
    ["a review with inline comments", json("POST", `${API}/repos/o/r/pulls/1/reviews`, { event: "COMMENT", body: "b", comments: [{ path: "a.ts", line: 3, side: "RIGHT", body: "c" }] })],
    ["a nullable field set to null", json("PATCH", `${API}/repos/o/r/issues/1`, { milestone: null })],
    ["the installation token, on Enterprise Server", { method: "POST", url: `${GHE}/api/v3/app/installations/4242/access_tokens`, headers: APP_JWT }],
    ["a user token on an endpoint closed to apps", { method: "GET", url: `${API}/user`, headers: { authorization: "token ghu_user" } }],
    ["GraphQL", json("POST", `${API}/graphql`, { query: "query($id: ID!) { node(id: $id) { id } }", variables: { id: "x" } })],
    ["GraphQL on Enterprise Server", json("POST", `${GHE}/api/graphql`, { query: "{ viewer { login } }" })],
    ["the OAuth code exchange", { method: "POST", url: "https://github.com/login/oauth/access_token", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "client_id=a&client_secret=b&code=c" }],
  ])("accepts %s", (_, req) => {
    expect(githubRequestProblems(req)).toEqual([]);
  });

  it.each<[string, CheckedRequest, string]>([
    ["an unknown path", { method: "GET", url: `${API}/repos/o/r/pulls/1/threads` }, "GET /repos/o/r/pulls/1/threads: no such endpoint in api.github.com's description"],
    ["a wrong method", json("PUT", `${API}/repos/o/r/issues/1/comments`, { body: "x" }), "PUT /repos/o/r/issues/1/comments: PUT is not allowed on /repos/{owner}/{repo}/issues/{issue_number}/comments (api.github.com's description has GET, POST)"],
    ["a missing required field", json("POST", `${API}/repos/o/r/pulls/1/comments`, { body: "x", commit_id: "abc", in_reply_to: 7 }), "POST /repos/o/r/pulls/1/comments: body.path is required"],
    ["a missing nested required field", json("POST", `${API}/repos/o/r/check-runs`, { name: "n", head_sha: "abc", output: { title: "t" } }), "POST /repos/o/r/check-runs: body.output.summary is required"],
    ["a wrong enum value", json("POST", `${API}/repos/o/r/issues/comments/5/reactions`, { content: "eye" }), 'POST /repos/o/r/issues/comments/5/reactions: body.content must be one of "+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes" (got "eye")'],
    ["a wrong nested enum value", json("POST", `${API}/repos/o/r/pulls/1/reviews`, { event: "comment" }), 'POST /repos/o/r/pulls/1/reviews: body.event must be one of "APPROVE", "REQUEST_CHANGES", "COMMENT" (got "comment")'],
    ["a wrong nested type", json("POST", `${API}/repos/o/r/pulls/1/reviews`, { event: "COMMENT", comments: [{ path: "a", line: "1", body: "c" }] }), 'POST /repos/o/r/pulls/1/reviews: body.comments[0].line must be an integer (got "1")'],
    ["a wrong type", json("POST", `${API}/repos/o/r/pulls/1/comments`, { body: "x", commit_id: "abc", path: "a", line: "3" }), 'POST /repos/o/r/pulls/1/comments: body.line must be an integer (got "3")'],
    ["a string where a date-time goes", json("PATCH", `${API}/repos/o/r/check-runs/9`, { completed_at: "yesterday" }), 'PATCH /repos/o/r/check-runs/9: body.completed_at must be an ISO 8601 date-time (got "yesterday")'],
    ["too many annotations", json("PATCH", `${API}/repos/o/r/check-runs/9`, { output: { title: "t", summary: "s", annotations: Array.from({ length: 51 }, () => ({ path: "a", start_line: 1, end_line: 1, annotation_level: "notice", message: "m" })) } }), "PATCH /repos/o/r/check-runs/9: body.output.annotations must have at most 50 items (has 51)"],
    ["a missing body", { method: "PATCH", url: `${API}/repos/o/r/issues/comments/5`, headers: INSTALLATION }, "PATCH /repos/o/r/issues/comments/5: a request body is required"],
    ["a body that is not JSON", { method: "POST", url: `${API}/repos/o/r/issues/1/comments`, body: "body=hi" }, "POST /repos/o/r/issues/1/comments: body is not JSON"],
    ["an integer path parameter that is not one", { method: "GET", url: `${API}/repos/o/r/pulls/undefined` }, 'GET /repos/o/r/pulls/undefined: path parameter pull_number must be an integer (got "undefined") (as /repos/{owner}/{repo}/pulls/{pull_number})'],
    ["a path parameter that is not percent-encoding", { method: "GET", url: `${API}/repos/o/r%ZZ` }, 'GET /repos/o/r%ZZ: path parameter repo is not valid percent-encoding (got "r%ZZ") (as /repos/{owner}/{repo})'],
    ["a query enum", { method: "GET", url: `${API}/repos/o/r/issues?state=opened` }, 'GET /repos/o/r/issues?state=opened: query parameter state must be one of "open", "closed", "all" (got "opened")'],
    ["an endpoint closed to GitHub Apps, with an installation token", json("POST", `${API}/repos/o/r/pulls/1/comments/3/replies`, { body: "x" }), "POST /repos/o/r/pulls/1/comments/3/replies: POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies is not enabled for GitHub Apps: an installation token is refused"],
    ["an app endpoint called with an installation token", { method: "POST", url: `${API}/app/installations/4242/access_tokens`, headers: INSTALLATION }, "POST /app/installations/4242/access_tokens: POST /app/installations/{installation_id}/access_tokens takes only the app's JWT (got a token)"],
    ["a repository endpoint called with the app's JWT", { method: "GET", url: `${API}/repos/o/r/pulls/1`, headers: APP_JWT }, "GET /repos/o/r/pulls/1: GET /repos/{owner}/{repo}/pulls/{pull_number} takes an installation or user token: the app's JWT reaches only the app's own endpoints"],
    ["an Enterprise Server path outside /api/v3", { method: "GET", url: `${GHE}/repos/o/r` }, "GET /repos/o/r: not a GitHub Enterprise Server API path (REST is under /api/v3, GraphQL at /api/graphql)"],
    ["an endpoint Enterprise Server does not have", { method: "GET", url: `${GHE}/api/v3/orgs/o/copilot/billing` }, "GET /api/v3/orgs/o/copilot/billing: no such endpoint in ghes-3.17's description"],
    ["GraphQL by GET", { method: "GET", url: `${API}/graphql?query=x` }, "GET /graphql?query=x: GraphQL is POST only (got GET)"],
    ["GraphQL without a query", json("POST", `${API}/graphql`, { variables: {} }), "POST /graphql: body.query must be a non-empty string"],
    ["GraphQL variables beside the query", json("POST", `${API}/graphql`, { query: "{ x }", owner: "o" }), "POST /graphql: body.owner is not read by GitHub's GraphQL endpoint (variables go in body.variables)"],
    ["the API on github.com", { method: "GET", url: "https://github.com/repos/o/r" }, "GET /repos/o/r: github.com serves no API (use api.github.com)"],
  ])("refuses %s", (_, req, message) => {
    expect(githubRequestProblems(req)).toEqual([message]);
  });
});

describe("the schema subset", () => {
  const none = () => ({});
  it.each<[string, Schema, unknown, string[]]>([
    ["null where not nullable", { type: "string" }, null, ["x must not be null"]],
    ["null where nullable", { type: "string", nullable: true }, null, []],
    ["an unknown key where none are permitted", { type: "object", properties: { a: { type: "string" } }, additionalProperties: false }, { a: "1", b: 2 }, ["x.b is not a permitted key"]],
    ["additional values by their schema", { type: "object", additionalProperties: { type: "string" } }, { a: 1 }, ["x.a must be a string (got 1)"]],
    ["oneOf: any fitting branch", { oneOf: [{ type: "integer" }, { type: "string" }] }, "7", []],
    ["oneOf: the nearest branch's problems", { oneOf: [{ type: "integer" }, { type: "object", required: ["a", "b"] }] }, {}, ["x fits none of the 2 allowed forms; nearest: x must be an integer (got {})"]],
    ["anyOf", { anyOf: [{ type: "integer" }, { type: "boolean" }] }, true, []],
    ["allOf: every part", { allOf: [{ type: "object", required: ["a"] }, { type: "object", required: ["b"] }] }, {}, ["x.a is required", "x.b is required"]],
    ["lengths in characters", { type: "string", maxLength: 2 }, "éé", []],
    ["a pattern", { type: "string", pattern: "^refs/" }, "heads/x", ['x must match /^refs// (got "heads/x")']],
    ["unique items", { type: "array", uniqueItems: true }, [1, 1], ["x must not repeat items"]],
  ])("%s", (_, schema, value, problems) => {
    expect(schemaProblems(schema, value, "x", none)).toEqual(problems);
  });
});

describe("the stand-ins check every request", () => {
  useNock();

  it("records what GitHub would refuse when nock answers it, so the test fails", async () => {
    nock(API).post("/repos/o/r/issues/comments/5/reactions").reply(201, {});
    await newOctokit().request("POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions", { owner: "o", repo: "r", comment_id: 5, content: "eye" as "eyes" });
    expect(takeRefusals()).toEqual([expect.stringContaining('POST /repos/o/r/issues/comments/5/reactions: body.content must be one of')]);
  });

  it("lets a correct call through without a record", async () => {
    nock(API).post("/repos/o/r/issues/1/comments").reply(201, { id: 1 });
    await newOctokit().request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { owner: "o", repo: "r", issue_number: 1, body: "hi" });
    expect(takeRefusals()).toEqual([]);
  });

  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("answers a local stand-in's refused request like GitHub and records it; a correct one reaches the handler with its body", async () => {
    const seen: string[] = [];
    server = createServer(
      checkedLikeGitHub(async (req, res) => {
        let body = "";
        for await (const chunk of req) body += String(chunk);
        seen.push(`${req.method} ${req.url} ${body}`);
        res.writeHead(201, { "content-type": "application/json" }).end("{}");
      }),
    );
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const post = (path: string, body: unknown) => fetch(`${base}${path}`, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
    expect((await post("/api/v3/repos/o/r/issues/1/comments", { body: "hi" })).status).toBe(201);
    expect((await post("/api/v3/repos/o/r/issues/1/comments", { body: 5 })).status).toBe(422);
    expect((await post("/api/v3/repos/o/r/nowhere", {})).status).toBe(404);
    expect(seen).toEqual(['POST /api/v3/repos/o/r/issues/1/comments {"body":"hi"}']);
    expect(takeRefusals()).toEqual([
      "POST /api/v3/repos/o/r/issues/1/comments: body.body must be a string (got 5)",
      "POST /api/v3/repos/o/r/nowhere: no such endpoint in ghes-3.17's description",
    ]);
  });
});

describe("a test that makes a call GitHub would refuse", () => {
  it("fails, naming the method, the path and the field; its neighbour with a correct call passes", async () => {
    const dir = await tempDir("crewbot-refusal-");
    const config = `${dir}/vitest.config.mjs`;
    await writeFile(config, `export default { test: { root: ${JSON.stringify(process.cwd())}, include: ["test/helpers/refused-call.check.ts"], pool: "forks" } };`);
    const run = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = execFile(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--config", config, "--reporter", "verbose", "--no-color"], { timeout: 60_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
      );
      child.stdin?.end();
    });
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/× .*sends a check run with a conclusion GitHub does not have/);
    expect(run.output).toMatch(/✓ .*sends a correct check run/);
    expect(run.output).toContain('POST /repos/o/r/check-runs: body.conclusion must be one of');
    expect(run.output).toContain('(got \\"passed\\")');
  }, 60_000);
});
