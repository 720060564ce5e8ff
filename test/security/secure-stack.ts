/**
 * The app harness of test/app, set up for the adversarial suite: every secret an operator has set
 * (also in `process.env`, as in production where `env` is `process.env`, so child processes would
 * inherit it if they were given it), Probot's logger at `trace` writing into `logs` (a pino logger
 * passed as Probot's `log` option: Probot's own children — webhooks, Octokit — share its stream),
 * and every GitHub request body the test's nock scopes see recorded in `sent`.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server, type Socket } from "node:net";
import { Writable } from "node:stream";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type nock from "nock";
import pino from "pino";
import { afterEach } from "vitest";
import type { JobRecord } from "../../src/queue/types.js";
import { ANTHROPIC_KEY, PRIVATE_KEY, startStack, TOKEN, WEBHOOK_SECRET, type Stack } from "../app/harness.js";
import type { Script } from "../helpers/fake-anthropic.js";
import { gitSync } from "../helpers/git-repo.js";

export const CLIENT_SECRET = `oauth-client-secret-${randomBytes(12).toString("hex")}`;
/** The token of the operator's MCP server (`${MCP_TRACKER_TOKEN}` in a `CREWBOT_MCP_CONFIG` header). */
export const MCP_TOKEN = `mcp-tracker-token-${randomBytes(12).toString("hex")}`;

/** Every secret of the operator and of a job, with the private key as its 64-char base64 lines. */
export const SECRETS: Array<[string, string]> = [
  ["installation token", TOKEN],
  ["installation token (git header)", Buffer.from(`x-access-token:${TOKEN}`).toString("base64")],
  ["ANTHROPIC_API_KEY", ANTHROPIC_KEY],
  ["WEBHOOK_SECRET", WEBHOOK_SECRET],
  ["GITHUB_CLIENT_SECRET", CLIENT_SECRET],
  ["MCP_TRACKER_TOKEN", MCP_TOKEN],
  ...PRIVATE_KEY.split("\n")
    .filter((line) => line.length >= 40 && !line.startsWith("-----"))
    .map((line, i): [string, string] => [`PRIVATE_KEY line ${i + 1}`, line]),
];

/** The names of the secrets found in `text` (any 40-char window of a key line counts). */
export function leaks(text: string): string[] {
  return SECRETS.filter(([, secret]) => text.includes(secret.length > 40 ? secret.slice(0, 40) : secret)).map(([name]) => name);
}

export interface SecureStack extends Omit<Stack, "runToEnd" | "waitFor"> {
  logs: string[];
  /** Bodies of the GitHub requests of the scopes passed to `record`. */
  sent: Array<{ method: string; path: string; body: unknown }>;
  record(scope: nock.Scope): nock.Scope;
  waitFor(jobId: string): Promise<JobRecord>;
  runToEnd(name: string, payload: unknown, deliveryId: string): Promise<JobRecord>;
}

const stacks: SecureStack[] = [];
const saved = new Map<string, string | undefined>();
afterEach(async () => {
  stacks.splice(0); // the harness stops the stacks it started
  for (const [key, value] of saved) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  saved.clear();
});

export async function startSecureStack(script: Script, files: Record<string, string> = { "README.md": "# Hello\n" }, env: NodeJS.ProcessEnv = {}): Promise<SecureStack> {
  const secrets: NodeJS.ProcessEnv = { GITHUB_CLIENT_ID: "Iv1.0123456789abcdef", GITHUB_CLIENT_SECRET: CLIENT_SECRET, MCP_TRACKER_TOKEN: MCP_TOKEN, LOG_LEVEL: "trace", ...env };
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const base = await startStack(script, { files, env: secrets, log: pino({ level: "trace" }, sink) });
  for (const key of ["PRIVATE_KEY", "WEBHOOK_SECRET", "ANTHROPIC_API_KEY", "GITHUB_CLIENT_SECRET", "MCP_TRACKER_TOKEN", "CREWBOT_DATA_DIR"]) {
    if (!saved.has(key)) saved.set(key, process.env[key]);
    process.env[key] = base.env[key];
  }
  const sent: SecureStack["sent"] = [];
  const stack: SecureStack = {
    ...base,
    logs,
    sent,
    record(scope) {
      scope.on("request", (req: { method: string; path: string }, _i: unknown, body: string) => sent.push({ method: req.method, path: req.path, body: parse(body) }));
      return scope;
    },
    waitFor: (jobId) => base.waitFor(jobId),
    runToEnd: (name, payload, deliveryId) => base.runToEnd(name, payload, deliveryId),
  };
  stacks.push(stack);
  return stack;
}

const parse = (body: string): unknown => {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
};

/** Everything of the remote a push could have changed: every ref, and every commit's message, author and patch. */
export function remoteHistory(remoteDir: string): string {
  const refs = gitSync(remoteDir, "for-each-ref", "--format=%(refname) %(objectname)");
  return refs + gitSync(remoteDir, "log", "-p", "--all", "--format=%H %an <%ae> %cn <%ce>%n%B");
}

/** Every file under `dir` as text (SQLite files too, read as latin1 so any ASCII secret in them shows). */
export async function filesUnder(dir: string): Promise<Array<{ file: string; text: string }>> {
  const out: Array<{ file: string; text: string }> = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.push({ file, text: await readFile(file, "latin1").catch(() => "") });
  }
  return out;
}

/** A TCP listener that counts connections: where an exfiltration would go. */
export async function startExfilServer(): Promise<{ port: number; connections: number; close(): Promise<void> }> {
  const sockets: Socket[] = [];
  const state = { port: 0, connections: 0, close: async () => {} };
  const server: Server = createServer((socket) => {
    state.connections += 1;
    sockets.push(socket);
    socket.end("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.port = (server.address() as { port: number }).port;
  state.close = () => new Promise<void>((resolve) => {
    for (const s of sockets) s.destroy();
    server.close(() => resolve());
  });
  return state;
}
