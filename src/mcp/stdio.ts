/**
 * A repository's stdio MCP servers (`mcp.servers`, DESIGN §4): each one a program started in the
 * sandbox for the job (tools/sandboxed-child.ts), spoken to over its stdin and stdout. What it
 * writes on stderr is kept, capped, for the job's log; a line of stdout longer than the cap, or
 * one that is not JSON-RPC, is an error of the connection, never the job's.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { RepoMcpServerConfig } from "../config/mcp-servers.js";
import type { CommandContext } from "../tools/run-command.js";
import { spawnSandboxed, type SandboxedChild } from "../tools/sandboxed-child.js";
import type { McpServer } from "./session.js";

/** Most bytes of one message a server may send (a line without its end counts whole). */
export const STDIO_MESSAGE_MAX_BYTES = 4 * 1024 * 1024;
/** Most characters of a server's stderr kept for the log. */
export const STDERR_MAX_CHARS = 4_000;

/** The MCP SDK's Transport over a program in the sandbox. */
export class SandboxedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: SandboxedChild | undefined;
  private readonly buffer = new ReadBuffer({ maxBufferSize: STDIO_MESSAGE_MAX_BYTES });
  private stderrText = "";
  private stderrCut = false;

  constructor(
    private readonly ctx: CommandContext,
    private readonly argv: readonly string[],
  ) {}

  /** What the program wrote on stderr so far, capped. */
  get stderr(): string {
    return this.stderrText + (this.stderrCut ? "\n[… more on stderr, not kept]" : "");
  }

  async start(): Promise<void> {
    if (this.child) throw new Error("already started");
    this.child = await spawnSandboxed(this.ctx, this.argv);
    const { process: child, exited, started } = this.child;
    child.stdout.on("data", (chunk: Buffer) => this.read(chunk));
    child.stderr.on("data", (chunk: Buffer) => this.keepStderr(chunk));
    child.stdin.on("error", (error) => this.onerror?.(error));
    void exited.then(() => this.onclose?.());
    await started;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.process.stdin;
    if (!stdin || stdin.destroyed) throw new Error("the server is not running");
    if (!stdin.write(serializeMessage(message))) await new Promise<void>((resolve) => stdin.once("drain", () => resolve()));
  }

  async close(): Promise<void> {
    await this.child?.close();
  }

  private read(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (error) {
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    for (;;) {
      try {
        const message = this.buffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
      } catch (error) {
        // One bad line (not JSON, not JSON-RPC) is that line's error; the next may be fine.
        this.onerror?.(error as Error);
      }
    }
  }

  private keepStderr(chunk: Buffer): void {
    const room = STDERR_MAX_CHARS - this.stderrText.length;
    const text = chunk.toString("utf8");
    if (text.length > room) this.stderrCut = true;
    if (room > 0) this.stderrText += text.slice(0, room);
  }
}

/**
 * The repository's servers as a session opens them. `ctx` gives each server its sandbox: the job
 * decides the checkout, its mode (writable only for a writing role in a writing job), the scratch
 * HOME and the network, and starts none on a stranger's code (jobs/job-mcp.ts).
 */
export function stdioServers(servers: Record<string, RepoMcpServerConfig>, ctx: (server: RepoMcpServerConfig) => CommandContext): McpServer[] {
  return Object.entries(servers).map(([name, server]) => {
    let transport: SandboxedStdioTransport | undefined;
    return {
      name,
      roles: [...new Set(server.roles)],
      ...(server.tools ? { tools: server.tools } : {}),
      secrets: [],
      kind: "stdio",
      transport: () => (transport = new SandboxedStdioTransport(ctx(server), [server.command, ...server.args])),
      stderr: () => transport?.stderr ?? "",
    };
  });
}
