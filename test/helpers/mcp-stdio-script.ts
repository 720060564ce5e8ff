/**
 * A repository's stdio MCP server for the tests: one Node script without dependencies (the
 * sandbox sees /usr, not node_modules), committed in a test checkout and run as
 * `node <SCRIPT_PATH>`. It speaks newline-delimited JSON-RPC and offers:
 *   echo  — answers "echo: <text>" (read-only)
 *   probe — tries to write a file in its working directory (the checkout) and lists the
 *           environment's names and any value naming a secret (read-only by its hint, so the
 *           default allow-list offers it: what it reports is what the sandbox allows)
 *   hang  — never answers;  crash — exits at once
 * It says "started" on stderr, so a job's log shows whether it ran.
 */
export const SCRIPT_PATH = "tools/mcp-server.mjs";

export const MCP_STDIO_SCRIPT = String.raw`import { writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
process.stderr.write("started\n");
const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
const text = (t) => ({ content: [{ type: "text", text: t }] });
const tools = [
  { name: "echo", description: "Echoes its text.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, annotations: { readOnlyHint: true } },
  { name: "probe", description: "Says what the sandbox allows.", inputSchema: { type: "object", properties: {} }, annotations: { readOnlyHint: true } },
  { name: "hang", description: "Never answers.", inputSchema: { type: "object", properties: {} }, annotations: { readOnlyHint: true } },
  { name: "crash", description: "Exits.", inputSchema: { type: "object", properties: {} }, annotations: { readOnlyHint: true } },
];
function call(name, args) {
  if (name === "echo") return text("echo: " + args.text);
  if (name === "probe") {
    let write = "ok";
    try { writeFileSync("mcp-wrote.txt", "x"); } catch (e) { write = e.code || String(e); }
    const secrets = Object.entries(process.env).filter(([k]) => /SECRET|TOKEN|KEY/.test(k)).map(([k, v]) => k + "=" + v);
    return text(JSON.stringify({ write, cwd: process.cwd(), env: Object.keys(process.env).sort(), secrets }));
  }
  if (name === "crash") process.exit(3);
  if (name === "hang") return undefined;
  return { content: [{ type: "text", text: "no such tool" }], isError: true };
}
createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === "initialize") return send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "test-stdio", version: "1" } } });
  if (m.method === "tools/list") return send({ jsonrpc: "2.0", id: m.id, result: { tools } });
  if (m.method === "tools/call") {
    const result = call(m.params.name, m.params.arguments ?? {});
    if (result) send({ jsonrpc: "2.0", id: m.id, result });
    return;
  }
  send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "method not found" } });
});
`;
