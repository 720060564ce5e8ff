/**
 * Every request that reaches a GitHub stand-in — a nock interceptor or a local HTTP server — is
 * checked against GitHub's own description (github-openapi.ts). What GitHub would refuse is
 * collected, and the test fails after it ends with each refusal: method, path and the wrong field.
 * Importing this module is enough: nock's scopes report each request they answer.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import nock from "nock";
import { afterEach, expect } from "vitest";
import { githubRequestProblems, type CheckedRequest } from "./github-openapi.js";

const refusals: string[] = [];

/** Checks one request and remembers what GitHub would refuse; returns those problems. */
export function checkGitHubRequest(req: CheckedRequest): string[] {
  const problems = githubRequestProblems(req);
  refusals.push(...problems);
  return problems;
}

/** Refusals so far in this test, taken (a test that expects a refusal takes it before the check at its end). */
export const takeRefusals = (): string[] => refusals.splice(0);

afterEach(() => {
  expect(takeRefusals(), "requests GitHub would refuse (its OpenAPI description)").toEqual([]);
});

interface NockedRequest {
  method: string;
  /** Path and query. */
  path: string;
  headers?: Record<string, string | string[] | number | undefined>;
}

// nock has no global "request" event; every scope emits one when it plays back a reply. Patching
// the scopes' shared prototype checks each intercepted request without touching any test.
const MARK = Symbol.for("crewbot.githubDescriptionCheck");
const scopePrototype = Object.getPrototypeOf(nock("https://description-check.invalid")) as Record<symbol | string, unknown> & {
  emit(event: string | symbol, ...args: unknown[]): boolean;
};
if (!scopePrototype[MARK]) {
  scopePrototype[MARK] = true;
  const emit = scopePrototype.emit;
  scopePrototype.emit = function (this: unknown, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const [req, interceptor, body] = args as [NockedRequest, { basePath: string }, string | undefined];
      const url = `${interceptor.basePath}${req.path}`;
      try {
        checkGitHubRequest({ method: req.method, url, headers: req.headers, body: body || undefined });
      } catch (error) {
        // Inside nock's playback a throw would only break the reply; the test fails on the record instead.
        refusals.push(`${req.method} ${url}: the stand-in could not check this request (${String(error)})`);
      }
    }
    return emit.call(this, event, ...args);
  };
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A local GitHub stand-in's request handler, checked first: a request GitHub would refuse gets
 * GitHub's kind of answer (404 for no such endpoint, 422 otherwise) and fails the test; any other
 * reaches `handler` with its body still readable.
 */
export function checkedLikeGitHub(handler: RequestListener): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    void bodyOf(req).then((body) => {
      const url = `http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`;
      const problems = checkGitHubRequest({ method: req.method ?? "GET", url, headers: req.headers, body: body.length ? body.toString("utf8") : undefined });
      if (problems.length > 0) {
        res.writeHead(problems.some((p) => p.includes("no such endpoint")) ? 404 : 422, { "content-type": "application/json" });
        res.end(JSON.stringify({ message: "Refused by the stand-in: not what GitHub's description accepts", errors: problems }));
        return;
      }
      const replay = Object.assign(Readable.from(body.length ? [body] : []), {
        method: req.method,
        url: req.url,
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        socket: req.socket,
        httpVersion: req.httpVersion,
      }) as unknown as IncomingMessage;
      handler(replay, res);
    });
  };
}
