/**
 * A repository's stdio MCP server (`mcp.servers`) started in the real sandbox (bubblewrap): its
 * tools are offered and answer as data, a read-only job's server cannot write the checkout and
 * sees no secret of crewbot's environment, a crash or a hang costs one tool error, a missing
 * sandbox starts nothing, and closing the session leaves no process of it behind.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, realpath, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RepoMcpServerConfig } from "../../src/config/mcp-servers.js";
import { openMcp, type McpSession } from "../../src/mcp/session.js";
import { MAX_BAD_LINES, StdioMessages, stdioServers } from "../../src/mcp/stdio.js";
import type { CommandContext } from "../../src/tools/run-command.js";
import { DEFAULT_LIMITS } from "../../src/tools/limits.js";
import { spawnSandboxed } from "../../src/tools/sandboxed-child.js";
import { bwrapArgs, detectSandbox } from "../../src/tools/sandbox.js";
import type { Mode, SandboxInfo, ToolContext } from "../../src/tools/types.js";
import { MCP_STDIO_SCRIPT, SCRIPT_PATH } from "../helpers/mcp-stdio-script.js";

const sandbox = await detectSandbox();
const SECRET = `sk-secret-${randomBytes(8).toString("hex")}`;
const sessions: McpSession[] = [];
let dirs: { root: string; scratchDir: string; artifactsDir: string };

beforeAll(async () => {
  process.env.CREWBOT_TEST_MCP_SECRET = SECRET;
  const tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), "crewbot-mcp-stdio-")));
  dirs = { root: path.join(tmp, "checkout"), scratchDir: path.join(tmp, "home"), artifactsDir: path.join(tmp, "artifacts") };
  for (const d of Object.values(dirs)) await mkdir(d);
  await mkdir(path.join(dirs.root, "tools"));
  await writeFile(path.join(dirs.root, SCRIPT_PATH), MCP_STDIO_SCRIPT);
});
afterAll(() => {
  delete process.env.CREWBOT_TEST_MCP_SECRET;
});
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
});

/** Processes of this machine whose command line holds `tag`. */
function processesWith(tag: string): number[] {
  return readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(tag);
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function open(options: { mode?: Mode; info?: SandboxInfo; server?: Partial<RepoMcpServerConfig>; callTimeoutMs?: number; network?: boolean } = {}) {
  const lines: string[] = [];
  const log = { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) };
  const tag = `--tag=${randomBytes(6).toString("hex")}`;
  const server: RepoMcpServerConfig = { command: "node", args: [SCRIPT_PATH, tag], roles: ["scout"], ...options.server };
  const ctx: CommandContext = { ...dirs, mode: options.mode ?? "read-only", network: options.network ?? false, sandbox: options.info ?? sandbox, envAllowlist: {} };
  const session = await openMcp(stdioServers({ docs: server }, () => ctx), { roles: ["scout"], signal: new AbortController().signal, log, callTimeoutMs: options.callTimeoutMs ?? 30_000, listTimeoutMs: 15_000 });
  sessions.push(session);
  const tool = (name: string) => {
    const found = session.toolsFor("scout").find((t) => t.name === `mcp__docs__${name}`);
    if (!found) throw new Error(`mcp__docs__${name} not offered; log: ${lines.join(" | ")}`);
    return (input: Record<string, unknown> = {}) => found.run(input, { signal: new AbortController().signal } as ToolContext);
  };
  return { session, lines, tool, tag };
}

describe("the bwrap argv of a server", () => {
  const layout = { system: [{ path: "/usr" }] };
  const ctx = { root: "/w/checkout", scratchDir: "/w/home", artifactsDir: "/w/art", network: false };
  it("binds the checkout read-only in read-only mode and writable only in write mode, runs in the checkout, no network", () => {
    const ro = bwrapArgs({ ...ctx, mode: "read-only" }, ["node", SCRIPT_PATH], layout);
    expect(ro.join(" ")).toContain("--ro-bind /w/checkout /w/checkout");
    expect(ro).not.toContain("--share-net");
    expect(ro.slice(-5)).toEqual(["--chdir", "/w/checkout", "--", "node", SCRIPT_PATH]);
    expect(bwrapArgs({ ...ctx, mode: "write" }, ["node"], layout).join(" ")).toContain("--bind /w/checkout /w/checkout");
  });
});

describe.skipIf(!sandbox.available)(`a stdio server in the sandbox${sandbox.available ? "" : ` — SKIPPED: ${sandbox.reason}`}`, () => {
  it("offers its read-only tools as mcp__docs__<tool> and answers as data", async () => {
    const { session, tool, lines } = await open();
    expect(session.toolsFor("scout").map((t) => t.name)).toEqual(["mcp__docs__echo", "mcp__docs__probe", "mcp__docs__hang", "mcp__docs__crash"]);
    expect(session.toolsFor("planner")).toEqual([]);
    const answer = await tool("echo")({ text: "hello" });
    expect(answer).toEqual({ output: expect.stringContaining("echo: hello"), isError: false });
    expect(answer.output).toContain('<document source="MCP server docs, tool echo" trust="third-party">');
    expect(lines).toContain("MCP server docs: 4 tools offered to scout");
  });

  it("in a read-only job cannot write the checkout, runs in it, and sees no secret of crewbot's environment", async () => {
    const { tool } = await open();
    const report = JSON.parse(/\{.*\}/s.exec((await tool("probe")()).output)![0]) as { write: string; cwd: string; env: string[]; secrets: string[] };
    expect(report.write).toBe("EROFS");
    expect(existsSync(path.join(dirs.root, "mcp-wrote.txt"))).toBe(false);
    expect(report.cwd).toBe(dirs.root);
    expect(report.secrets).toEqual([]);
    expect(report.env).not.toContain("CREWBOT_TEST_MCP_SECRET");
    expect(JSON.stringify(report)).not.toContain(SECRET);
  });

  it("writes the checkout only when the job writes and gave it a writable one", async () => {
    const { tool } = await open({ mode: "write" });
    expect(JSON.parse(/\{.*\}/s.exec((await tool("probe")()).output)![0]).write).toBe("ok");
    expect(existsSync(path.join(dirs.root, "mcp-wrote.txt"))).toBe(true);
  });

  it("a hung call is one error after the call's time limit, a crash one error, and the next call an error too", async () => {
    const { tool } = await open({ callTimeoutMs: 300 });
    await expect(tool("hang")()).rejects.toThrow('The MCP server "docs" did not answer hang: no answer within 0 s');
    await expect(tool("crash")()).rejects.toThrow('The MCP server "docs" did not answer crash');
    await expect(tool("echo")({ text: "again" })).rejects.toThrow('The MCP server "docs" did not answer echo');
  });

  it("leaves no process behind once the session is closed, and logs its stderr (capped) then", async () => {
    const { session, tag, lines } = await open();
    expect(processesWith(tag).length).toBeGreaterThan(0);
    await session.close();
    expect(processesWith(tag)).toEqual([]);
    expect(lines).toContain("MCP server docs wrote on stderr:\nstarted");
  });

  it.skipIf(sandbox.network?.available !== true)("with network on (`sandbox.network: true`) runs in the egress-only namespace, and leaves nothing behind", async () => {
    const { session, tool, tag } = await open({ network: true });
    expect((await tool("echo")({ text: "net" })).output).toContain("echo: net");
    await session.close();
    expect(processesWith(tag)).toEqual([]);
  });

  it("a program that cannot start costs one log line and offers nothing", async () => {
    const { session, lines } = await open({ server: { command: "./no-such-program" } });
    expect(session.toolsFor("scout")).toEqual([]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^MCP server docs offers no tools to this job: it could not be started or listed \(.+\); on stderr:\n.*no-such-program/s);
  });
});

describe("without a sandbox", () => {
  it("starts nothing unless the operator allowed commands without one", async () => {
    const { session, lines, tag } = await open({ info: { available: false, reason: "bubblewrap (bwrap) is not installed" } });
    expect(session.toolsFor("scout")).toEqual([]);
    expect(lines).toEqual([expect.stringContaining("no OS sandbox on this worker (bubblewrap (bwrap) is not installed): crewbot runs no commands without one")]);
    expect(processesWith(tag)).toEqual([]);
  });
});

describe("a server's stdout, read", () => {
  const read = (chunks: Buffer[], max?: number) => {
    const reader = new StdioMessages(max);
    const messages: unknown[] = [];
    const errors: string[] = [];
    const more = chunks.map((c) => reader.push(c, { message: (m) => messages.push(m), error: (e) => errors.push(e.message) }));
    return { messages, errors, more };
  };
  const PING = '{"jsonrpc":"2.0","id":1,"result":{}}';

  it("reads a message however the pipe cuts it, a byte at a time too, and skips blank lines", () => {
    const bytes = Buffer.from(`\n${PING}\r\n\n${PING}\n`);
    const bytewise = read([...bytes].map((b) => Buffer.from([b])));
    expect(bytewise.messages).toHaveLength(2);
    expect(bytewise.errors).toEqual([]);
    expect(read([bytes]).messages).toHaveLength(2);
  });

  it("a line that is not JSON-RPC is that line's error; a hundred of them close the connection", () => {
    const one = read([Buffer.from(`not json\n${PING}\n`)]);
    expect(one.messages).toHaveLength(1);
    expect(one.errors).toHaveLength(1);
    const many = read([Buffer.from("x\n".repeat(MAX_BAD_LINES + 5) + `${PING}\n`)]);
    expect(many.more).toEqual([false]);
    expect(many.messages).toEqual([]);
    expect(many.errors.at(-1)).toBe(`${MAX_BAD_LINES} lines of the server's are not JSON-RPC: the connection is closed`);
  });

  it("a message over the cap, ended or not, closes the connection without holding more than the cap", () => {
    const long = read([Buffer.from("a".repeat(600)), Buffer.from("a".repeat(600))], 1000);
    expect(long.more).toEqual([true, false]);
    expect(long.errors).toEqual(["a message of the server's is over 1000 bytes: the connection is closed"]);
    expect(read([Buffer.from(`${"a".repeat(1001)}\n`)], 1000).more).toEqual([false]);
  });
});

describe("a server that fills the disk", () => {
  it("is ended past the write quota of a command, said once, and nothing of it is left running", async () => {
    const tag = `quota-${randomBytes(6).toString("hex")}`;
    const ctx: CommandContext = { ...dirs, mode: "read-only", network: false, sandbox, envAllowlist: {} };
    const said: string[] = [];
    const child = await spawnSandboxed(ctx, ["sh", "-c", `head -c 8000000 /dev/zero > "$HOME/fill-${tag}"; exec sleep 120`, tag], {
      limits: { ...DEFAULT_LIMITS, diskWriteMaxBytes: 1_000_000 },
      onLimit: (why) => said.push(why),
    });
    await child.started;
    await child.exited; // ended by the quota, long before its sleep would end
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^it wrote .+ to disk, over the .+ limit: it was ended$/);
    await child.close();
    expect(processesWith(tag)).toEqual([]);
  }, 60_000);
});
