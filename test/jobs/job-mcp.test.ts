/**
 * Which of a repository's MCP servers a job may start (jobs/job-mcp.ts, mcp/chain-servers.ts): none on a fork's code,
 * none without a sandbox (unless the operator allowed it), none named like an operator's server —
 * each refusal said once — and a writable checkout only for a writing role in a writing job.
 */
import { describe, expect, it } from "vitest";
import type { RepoMcpServerConfig } from "../../src/config/mcp-servers.js";
import { runnableServers } from "../../src/jobs/job-mcp.js";
import type { Prepared } from "../../src/jobs/prepare.js";
import { repositoryServers, serverMode } from "../../src/mcp/chain-servers.js";
import type { McpServer } from "../../src/mcp/session.js";
import type { CheckoutTrust, SandboxInfo } from "../../src/tools/types.js";

const CONFIGURED: Record<string, RepoMcpServerConfig> = {
  docs: { command: "node", args: ["docs.mjs"], roles: ["planner"] },
  tracker: { command: "node", args: ["tracker.mjs"], roles: ["scout"] },
};
const OPERATOR = [{ name: "Tracker" }] as McpServer[];
const WORKS: SandboxInfo = { available: true, program: "/usr/bin/bwrap", network: { available: true } };

function servers(trust: CheckoutTrust, sandbox: SandboxInfo, network = false) {
  const said: string[] = [];
  const say = (level: string, message: string) => said.push(`${level}: ${message}`);
  const prepared = { config: { mcp: { servers: CONFIGURED } }, policy: { trust, mode: "read-only", network } } as unknown as Prepared;
  const workspace = { root: "/d/checkout", scratchDir: "/d/s", artifactsDir: "/d/a", sandbox, network, mode: "read-only" as const };
  const kept = repositoryServers(runnableServers(prepared, say), OPERATOR, workspace, say);
  return { names: kept.map((s) => s.name), said };
}

describe("a repository's MCP servers for a job", () => {
  it("on a fork's code: none, and one line says they were skipped (not an error)", () => {
    expect(servers("stranger", WORKS)).toEqual({
      names: [],
      said: ["info: the repository's MCP servers (docs, tracker) were not started: this pull request's code is a fork's, and nothing of a stranger's code runs"],
    });
  });

  it("without a sandbox: none, with the reason and the operator's remedy", () => {
    const { names, said } = servers("trusted", { available: false, reason: "bubblewrap (bwrap) is not installed" });
    expect(names).toEqual([]);
    expect(said).toEqual([expect.stringMatching(/^warn: the repository's MCP servers \(docs, tracker\) were not started: no OS sandbox on this worker \(bubblewrap \(bwrap\) is not installed\).*CREWBOT_ALLOW_UNSANDBOXED=1/)]);
  });

  it("with network on but no egress-only namespace: none", () => {
    expect(servers("trusted", { ...WORKS, network: { available: false, reason: "slirp4netns is not installed" } }, true).names).toEqual([]);
  });

  it("unsandboxed only by the operator's opt-in, and then said", () => {
    const { names, said } = servers("trusted", { available: false, reason: "none", allowUnsandboxed: true });
    expect(names).toEqual(["docs"]);
    expect(said[0]).toMatch(/^warn: the repository's MCP servers: commands run WITHOUT an OS sandbox/);
  });

  it("a name the operator's servers use (any case) is not started, naming the key", () => {
    const { names, said } = servers("trusted", WORKS);
    expect(names).toEqual(["docs"]);
    expect(said).toEqual(["warn: the repository's MCP server tracker was not started: the operator's server of that name is used (`mcp.servers.tracker`: choose another name)"]);
  });

  it("gives a writable checkout only to a writing role's server in a writing job", () => {
    expect(serverMode("write", ["worker"])).toBe("write");
    expect(serverMode("write", ["scout", "planner"])).toBe("read-only");
    expect(serverMode("read-only", ["worker"])).toBe("read-only");
  });
});
