/**
 * The operator's MCP config in the whole app: a bad file stops start-up naming it, and a server
 * that cannot be reached costs a job nothing but its tools.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { useNock } from "../helpers/github.js";
import { mockInstallationToken, mockJobComments, mockPermission, startStack } from "../app/harness.js";
import { startMcpServer } from "../helpers/mcp-server.js";

useNock();

async function configFile(text: string): Promise<string> {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), "crewbot-mcp-")), "mcp.yml");
  await writeFile(file, text);
  return file;
}

describe("CREWBOT_MCP_CONFIG in the app", () => {
  it("a bad file stops start-up, naming the file and the key", async () => {
    const file = await configFile("servers:\n  tracker:\n    url: https://mcp.example.com/mcp\n    roles: [scout]\n    headers: { Authorization: \"Bearer ${NOT_SET_FOR_MCP}\" }\n");
    await expect(startStack([], { env: { CREWBOT_MCP_CONFIG: file } })).rejects.toThrow(`CREWBOT_MCP_CONFIG (${file}): servers.tracker.headers.Authorization: \${NOT_SET_FOR_MCP} is not set in crewbot's environment`);
  });

  it("a server that cannot be reached offers no tools, and the job runs", async () => {
    const dead = await startMcpServer("any-token-1234567890");
    await dead.close();
    const file = await configFile(`servers:\n  tracker:\n    url: ${dead.url}\n    roles: [scout, planner]\n`);
    const stack = await startStack([{ text: "Scout report." }, { text: "## Plan\n1. Fix the README" }], { env: { CREWBOT_MCP_CONFIG: file } });
    const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockPermission("Codertocat", "admin");
    mockJobComments({ progressId: 931, edits: [], trigger: { id: payload.comment.id } });
    const job = await stack.runToEnd("issue_comment", payload, "mcp-unreachable");
    expect(job.outcome).toMatch(/^✅ Done/);
    const names = stack.fake.requests.flatMap((r) => (r.body.tools as Array<{ name: string }> | undefined ?? []).map((t) => t.name));
    expect(names.filter((n) => n.startsWith("mcp__"))).toEqual([]);
  });
});
