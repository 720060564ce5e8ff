/**
 * `crewbot run` with MCP servers, as a job: the operator's remote server from `CREWBOT_MCP_CONFIG`
 * (its bearer token checked by the server) and the checkout's stdio server from its
 * `.github/crewbot.yml`, started in the real sandbox. The answers reach the model as data; the token
 * is in no model request and nowhere the CLI prints; no server process outlives the run; a bad file
 * stops the run before anything runs, naming the file and the key.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { detectSandbox } from "../../src/tools/sandbox.js";
import { makeRepo } from "../helpers/git-repo.js";
import { startMcpServer, type FakeMcpServer } from "../helpers/mcp-server.js";
import { MCP_STDIO_SCRIPT, SCRIPT_PATH } from "../helpers/mcp-stdio-script.js";
import { inProcessRun } from "./run-in-process.js";

const sandbox = await detectSandbox();
const run = inProcessRun();
const TOKEN = `cli-mcp-token-${randomBytes(12).toString("hex")}`;
const PLAN = "## Goal\nFix the login page.\n\n## Plan\n1. Raise the login timeout\n\n## Risks\nNone.";
const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });

let server: FakeMcpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function mcpFile(text: string): Promise<string> {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), "crewbot-cli-mcp-")), "mcp.yml");
  await writeFile(file, text);
  return file;
}

/** The tool results the model got back in request `index`, by order. */
const resultsIn = (requests: Array<{ body: Record<string, any> }>, index: number) =>
  (requests[index]!.body.messages.at(-1).content as Array<{ content: string }>).map((r) => r.content);
const offeredMcp = (requests: Array<{ body: Record<string, any> }>) =>
  requests.map((r) => ((r.body.tools ?? []) as Array<{ name: string }>).map((t) => t.name).filter((n) => n.startsWith("mcp__")));

/** Processes of this machine whose command line holds `tag`. */
function processesWith(tag: string): number[] {
  return readdirSync("/proc")
    .filter((pid) => {
      try {
        return /^\d+$/.test(pid) && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(tag);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe("crewbot run with the operator's MCP servers (CREWBOT_MCP_CONFIG)", () => {
  it("the scout calls the remote server's tool and reads its answer as data; the token is in no request and nowhere printed", async () => {
    server = await startMcpServer(TOKEN);
    const file = await mcpFile(`servers:\n  tracker:\n    url: ${server.url}\n    headers: { Authorization: "Bearer \${CLI_TRACKER_TOKEN}" }\n    roles: [scout]\n`);
    const repo = await makeRepo({ "README.md": "hello\n" });
    const r = await run(repo, ["fix the login page"], [
      { content: [use("mcp__tracker__get_issue", { key: "7" }), use("mcp__tracker__echo_auth", {})] },
      { text: "Scout report: PROJ-7 says the login page times out." },
      // A model that somehow wrote the token: the CLI's output still does not show it.
      { text: `${PLAN}\n\nUse ${TOKEN}.` },
    ], { CREWBOT_MCP_CONFIG: file, CLI_TRACKER_TOKEN: TOKEN });

    expect(r.code).toBe(0);
    expect(server.refused).toBe(0);
    expect(server.calls.map((c) => c.name)).toEqual(["get_issue", "echo_auth"]);
    // The scout is offered the server's read-only tools; the planner (not in its roles) none.
    expect(offeredMcp(r.requests)[0]).toContain("mcp__tracker__get_issue");
    expect(offeredMcp(r.requests)[2]).toEqual([]);
    const [issue, echo] = resultsIn(r.requests, 1);
    expect(issue).toContain('<document source="MCP server tracker, tool get_issue" trust="third-party">\nPROJ-7: the login page times out.');
    expect(echo).toContain("you sent: Bearer [redacted]");
    expect(r.stderr).toContain("crewbot: note: MCP server tracker: 6 tools offered to scout");
    expect(r.stdout).toContain("Raise the login timeout");
    expect(r.stdout).toContain("Use [redacted].");
    for (const text of [r.stdout, r.stderr, JSON.stringify(r.requests)]) expect(text).not.toContain(TOKEN);
  });

  it.each([
    ["servers:\n  tracker:\n    url: https://mcp.example.com/mcp\n    roles: [scout]\n    token: abc\n", "servers.tracker.token: unknown key"],
    ['servers:\n  tracker:\n    url: https://mcp.example.com/mcp\n    roles: [scout]\n    headers: { Authorization: "Bearer ${NOT_SET_FOR_CLI_MCP}" }\n', "servers.tracker.headers.Authorization: ${NOT_SET_FOR_CLI_MCP} is not set in crewbot's environment"],
  ])("a bad file stops the run before the model is asked, naming the file and the key (%#)", async (text, problem) => {
    const file = await mcpFile(text);
    const repo = await makeRepo({ "README.md": "hello\n" });
    const r = await run(repo, ["fix the login page"], [{ text: "never asked" }], { CREWBOT_MCP_CONFIG: file });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`crewbot: CREWBOT_MCP_CONFIG (${file}): ${problem}`);
    expect(r.requests).toHaveLength(0);
  });

  it("a file that cannot be read stops the run, naming it", async () => {
    const repo = await makeRepo({ "README.md": "hello\n" });
    const r = await run(repo, ["fix the login page"], [{ text: "never asked" }], { CREWBOT_MCP_CONFIG: "/nonexistent/mcp.yml" });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("crewbot: CREWBOT_MCP_CONFIG (/nonexistent/mcp.yml): cannot be read (ENOENT)");
  });
});

describe("crewbot run with the checkout's stdio MCP servers (`mcp.servers`)", () => {
  const checkout = (tag: string) =>
    makeRepo({
      "README.md": "hello\n",
      [SCRIPT_PATH]: MCP_STDIO_SCRIPT,
      ".github/crewbot.yml": `mcp:\n  servers:\n    docs: { command: node, args: [${SCRIPT_PATH}, "${tag}"], roles: [scout] }\n`,
    });

  it.skipIf(!sandbox.available)(`runs the server in the sandbox: its answers reach the scout as data, it cannot write the checkout, and it is gone after the run${sandbox.available ? "" : ` — SKIPPED: ${sandbox.reason}`}`, async () => {
    const tag = `--tag=${randomBytes(6).toString("hex")}`;
    const repo = await checkout(tag);
    const r = await run(repo, ["fix the login page"], [
      { content: [use("mcp__docs__echo", { text: "where is the login page?" }), use("mcp__docs__probe", {})] },
      { text: "Scout report: the docs server answered." },
      { text: PLAN },
    ]);
    expect(r.stderr).toContain("crewbot: note: MCP server docs: 4 tools offered to scout");
    expect(r.code).toBe(0);
    expect(offeredMcp(r.requests)[0]).toEqual(["mcp__docs__echo", "mcp__docs__probe", "mcp__docs__hang", "mcp__docs__crash"]);
    const [echo, probe] = resultsIn(r.requests, 1);
    expect(echo).toContain('<document source="MCP server docs, tool echo" trust="third-party">');
    expect(echo).toContain("echo: where is the login page?");
    const report = JSON.parse(/\{.*\}/s.exec(probe!)![0]) as { write: string; env: string[]; secrets: string[] };
    expect(report.write).toBe("EROFS");
    expect(report.secrets).toEqual([]);
    expect(report.env.join(" ")).not.toMatch(/ANTHROPIC|CREWBOT_/);
    // Its stderr is said when the session closes; nothing of it is left running.
    expect(r.stderr).toContain("MCP server docs wrote on stderr:\nstarted");
    expect(processesWith(tag)).toEqual([]);
  });

  it("without a sandbox the server is not started, and stderr says why and what to do; the run goes on", async () => {
    const tag = `--tag=${randomBytes(6).toString("hex")}`;
    const repo = await checkout(tag);
    const r = await run(repo, ["fix the login page"], [{ text: "Scout report." }, { text: PLAN }], { CREWBOT_BWRAP: "/nonexistent/bwrap" });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/crewbot: warning: the repository's MCP servers \(docs\) were not started: no OS sandbox .*CREWBOT_ALLOW_UNSANDBOXED=1/);
    expect(offeredMcp(r.requests).flat()).toEqual([]);
    expect(processesWith(tag)).toEqual([]);
  });

  it("a checkout config with a bad `mcp.servers` stops the run, naming the file and the key", async () => {
    const repo = await makeRepo({ "README.md": "hello\n", ".github/crewbot.yml": "mcp:\n  servers:\n    docs: { args: [x], roles: [scout] }\n" });
    const r = await run(repo, ["fix the login page"], [{ text: "never asked" }]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^crewbot: ${path.join(repo, ".github/crewbot.yml").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} is invalid:\n  - mcp\\.servers\\.docs`));
    expect(r.requests).toHaveLength(0);
  });
});
