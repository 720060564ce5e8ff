/**
 * A repository's stdio MCP servers (`mcp.servers`, DESIGN §4): each one a program started in the
 * sandbox for the job (tools/sandboxed-child.ts), spoken to over its stdin and stdout. What it
 * writes on stderr is kept, capped, for the job's log; a line of stdout longer than the cap, or
 * one that is not JSON-RPC, is an error of the connection, never the job's.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { RepoMcpServerConfig } from "../config/mcp-servers.js";
import type { CommandContext } from "../tools/run-command.js";
import { spawnSandboxed, type SandboxedChild } from "../tools/sandboxed-child.js";
import type { McpServer } from "./session.js";

/** Most bytes of one message a server may send (a line without its end counts whole). */
export const STDIO_MESSAGE_MAX_BYTES = 4 * 1024 * 1024;
/** Lines that are not JSON-RPC a connection bears before it is closed: a server writing its logs on stdout is broken. */
export const MAX_BAD_LINES = 100;
/** Most characters of a server's stderr kept for the log. */
export const STDERR_MAX_CHARS = 4_000;

/**
 * A server's stdout read into JSON-RPC messages, one a line: a line that is not JSON-RPC is that
 * line's error (blank lines are skipped); past `maxBytes` buffered without a line's end, or after
 * MAX_BAD_LINES bad lines, the reading is over (false). Each
 * byte is looked at once however the pipe cuts it (the SDK's buffer copies all it holds on every
 * chunk: a server writing a byte at a time made that quadratic).
 */
export class StdioMessages {
  /** The line begun and not ended: `held[0, heldBytes)`, grown by doubling so each byte is copied a bounded number of times. */
  private held = Buffer.alloc(0);
  private heldBytes = 0;
  private badLines = 0;

  constructor(private readonly maxBytes = STDIO_MESSAGE_MAX_BYTES) {}

  push(chunk: Buffer, on: { message(message: JSONRPCMessage): void; error(error: Error): void }): boolean {
    let rest = chunk;
    for (let end = rest.indexOf(0x0a); end !== -1; end = rest.indexOf(0x0a)) {
      if (this.heldBytes + end > this.maxBytes) return this.over(on, `a message of the server's is over ${this.maxBytes} bytes`);
      const line = this.heldBytes === 0 ? rest.subarray(0, end) : Buffer.concat([this.held.subarray(0, this.heldBytes), rest.subarray(0, end)]);
      this.heldBytes = 0;
      rest = rest.subarray(end + 1);
      const text = line.toString("utf8").trim();
      if (text === "") continue;
      try {
        on.message(deserializeMessage(text));
      } catch (error) {
        // One bad line (not JSON, not JSON-RPC) is that line's error; the next may be fine — up to a point.
        on.error(error as Error);
        if (++this.badLines >= MAX_BAD_LINES) return this.over(on, `${MAX_BAD_LINES} lines of the server's are not JSON-RPC`);
      }
    }
    if (this.heldBytes + rest.length > this.maxBytes) return this.over(on, `a message of the server's is over ${this.maxBytes} bytes`);
    this.hold(rest);
    return true;
  }

  private hold(bytes: Buffer): void {
    if (bytes.length === 0) return;
    const needed = this.heldBytes + bytes.length;
    if (needed > this.held.length) {
      const grown = Buffer.alloc(Math.min(Math.max(needed, this.held.length * 2, 1024), this.maxBytes));
      this.held.copy(grown, 0, 0, this.heldBytes);
      this.held = grown;
    }
    bytes.copy(this.held, this.heldBytes);
    this.heldBytes = needed;
  }

  private over(on: { error(error: Error): void }, why: string): false {
    this.held = Buffer.alloc(0);
    this.heldBytes = 0;
    on.error(new Error(`${why}: the connection is closed`));
    return false;
  }
}

/** The MCP SDK's Transport over a program in the sandbox. */
export class SandboxedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: SandboxedChild | undefined;
  private readonly messages = new StdioMessages();
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
    this.child = await spawnSandboxed(this.ctx, this.argv, { onLimit: (why) => this.onerror?.(new Error(`the server broke a limit: ${why}`)) });
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
    const more = this.messages.push(chunk, { message: (m) => this.onmessage?.(m), error: (e) => this.onerror?.(e) });
    if (!more) void this.close();
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
