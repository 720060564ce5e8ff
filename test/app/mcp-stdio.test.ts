/**
 * A repository's stdio MCP server (`mcp.servers` in `.github/crewbot.yml`, default branch) in the
 * whole app: on the repository's own code the server is started in the sandbox, the scout calls
 * `mcp__docs__<tool>` and reads its answer as data — the checkout read-only to it, no secret in its
 * environment; on a fork's pull request the server is never started, its tools never offered, and
 * the transcript says it was skipped (the job goes on).
 */
import { readdirSync, readFileSync } from "node:fs";
import { chmod, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { gitSync, tempDir } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { MCP_STDIO_SCRIPT, SCRIPT_PATH } from "../helpers/mcp-stdio-script.js";
import { detectSandbox } from "../../src/tools/sandbox.js";
import { API, mockInstallationToken, mockJobComments, mockPermission, REPO_PATH, startStack, type Stack } from "./harness.js";
import { commitOnFeature } from "./review-harness.js";

useNock();

const sandbox = await detectSandbox();
const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });
const CONFIG = `mcp:\n  servers:\n    docs: { command: node, args: [${SCRIPT_PATH}], roles: [scout, reviewer] }\nreview:\n  auto: false\n`;
const FILES = { "README.md": "# Hello\n", [SCRIPT_PATH]: MCP_STDIO_SCRIPT };

const offeredMcp = (stack: Stack) => stack.fake.requests.map((r) => (r.body.tools as Array<{ name: string }>).map((t) => t.name).filter((n) => n.startsWith("mcp__")));
/** Processes still running the test's server script anywhere on this machine. */
function serverProcesses(): number[] {
  return readdirSync("/proc").filter((pid) => {
    try {
      return /^\d+$/.test(pid) && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(SCRIPT_PATH);
    } catch {
      return false;
    }
  }).map(Number);
}
const logsOf = async (stack: Stack, id: string) => (await stack.crewbot.transcripts.store.read(id)).flatMap((e) => (e.type === "log" ? [e.message] : []));

describe.skipIf(!sandbox.available)(`the repository's stdio MCP server${sandbox.available ? "" : ` — SKIPPED: ${sandbox.reason}`}`, () => {
  it("/plan on an issue: the scout calls mcp__docs__echo and mcp__docs__probe and reads their answers; the server cannot write the checkout nor see a secret", async () => {
    const stack = await startStack(
      [
        { content: [use("mcp__docs__echo", { text: "where is the login page?" }), use("mcp__docs__probe", {})] },
        { text: "Scout report: the docs server answered." },
        { text: "## Plan\n1. Tidy the README" },
      ],
      { files: FILES },
    );
    const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockPermission("Codertocat", "admin");
    mockJobComments({ progressId: 941, edits: [], trigger: { id: payload.comment.id }, config: { repo: CONFIG } });

    const job = await stack.runToEnd("issue_comment", payload, "mcp-stdio-plan");

    expect(job.outcome).toMatch(/^✅ Done/);
    // The scout's role is listed; the planner's is not.
    const offered = offeredMcp(stack);
    expect(offered[0]).toEqual(["mcp__docs__echo", "mcp__docs__probe", "mcp__docs__hang", "mcp__docs__crash"]);
    expect(offered[2]).toEqual([]);
    const [echo, probe] = (stack.fake.requests[1]!.body.messages.at(-1).content as Array<{ content: string; is_error?: boolean }>).map((r) => r);
    expect(echo!.content).toContain('<document source="MCP server docs, tool echo" trust="third-party">');
    expect(echo!.content).toContain("echo: where is the login page?");
    const report = JSON.parse(/\{.*\}/s.exec(probe!.content)![0]) as { write: string; env: string[]; secrets: string[] };
    expect(report.write).toBe("EROFS");
    expect(report.secrets).toEqual([]);
    expect(report.env.join(" ")).not.toMatch(/ANTHROPIC|WEBHOOK|PRIVATE_KEY|GITHUB|CREWBOT_/);
    expect(gitSync(stack.remoteDir, "ls-tree", "--name-only", "main")).not.toContain("mcp-wrote.txt");
    // Every call in the transcript, and the server's stderr in its log.
    const transcript = JSON.stringify(await stack.crewbot.transcripts.store.read(job.id));
    expect(transcript).toContain("mcp__docs__echo");
    expect(transcript).toContain("mcp__docs__probe");
    expect(await logsOf(stack, job.id)).toEqual(expect.arrayContaining(["MCP server docs: 4 tools offered to scout, reviewer", "MCP server docs wrote on stderr:\nstarted"]));
    // The job is over: nothing of the server is left running.
    expect(serverProcesses()).toEqual([]);
  });

  it("/review on a fork's pull request: the server is not started, its tools are not offered, and the transcript says why", async () => {
    const stack = await startStack([{ content: [use("mcp__docs__echo", { text: "hi" })] }, { text: "## Summary\nFine." }], { files: FILES });
    gitSync(stack.remoteDir, "branch", "feature");
    const head = await commitOnFeature(stack, (dir) => writeFile(path.join(dir, "README.md"), "# Hello, fork\n"), "fork change");
    const payload = issueCommentCreated("/review", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    payload.issue.pull_request = { url: `${API}${REPO_PATH}/pulls/1` };
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    mockJobComments({ progressId: 942, edits: [], trigger: { id: payload.comment.id }, config: { repo: CONFIG }, pull: {} })
      .get(`${REPO_PATH}/pulls/1`)
      .reply(200, { head: { sha: head, repo: { full_name: "eve/Hello-World" } }, base: { ref: "main" } });

    const job = await stack.runToEnd("issue_comment", payload, "mcp-stdio-fork-review");

    expect(job.state).toBe("succeeded");
    expect(stack.fake.requests).toHaveLength(2);
    expect(offeredMcp(stack).flat()).toEqual([]);
    // The model's call of a tool it was never offered is an error result, never run.
    expect(stack.fake.requests[1]!.body.messages.at(-1).content[0]).toMatchObject({ type: "tool_result", is_error: true });
    const logs = await logsOf(stack, job.id);
    expect(logs).toContain("the repository's MCP servers (docs) were not started: this pull request's code is a fork's, and nothing of a stranger's code runs");
    expect(logs.join("\n")).not.toContain("wrote on stderr");
  });
});

describe("the repository's stdio MCP server without a working sandbox", () => {
  it("/plan ends ✅ without its tools: bubblewrap is never asked to run the script, and the transcript says why", async () => {
    // Fails like bwrap in a default Docker container, and writes down every argv it is given.
    const dir = await tempDir("crewbot-fake-bwrap-");
    const bwrap = path.join(dir, "bwrap");
    const calls = path.join(dir, "calls");
    await writeFile(calls, "");
    await writeFile(bwrap, `#!/bin/sh\necho "$*" >> ${calls}\necho 'bwrap: Can'\\''t mount proc on /newroot/proc: Operation not permitted' >&2\nexit 1\n`);
    await chmod(bwrap, 0o755);
    const stack = await startStack([{ text: "Scout report." }, { text: "## Plan\n1. Tidy the README" }], { files: FILES, env: { CREWBOT_BWRAP: bwrap } });
    const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockPermission("Codertocat", "admin");
    mockJobComments({ progressId: 943, edits: [], trigger: { id: payload.comment.id }, config: { repo: CONFIG } });

    const job = await stack.runToEnd("issue_comment", payload, "mcp-stdio-no-sandbox");

    expect(job.outcome).toMatch(/^✅ Done/);
    expect(offeredMcp(stack).flat()).toEqual([]);
    expect((await readFile(calls, "utf8")).length).toBeGreaterThan(0); // the start-up probe asked it
    expect(await readFile(calls, "utf8")).not.toContain(SCRIPT_PATH);
    expect((await logsOf(stack, job.id)).join("\n")).toMatch(/the repository's MCP servers \(docs\) were not started: no OS sandbox on this worker \(bubblewrap does not work here: bwrap: Can't mount proc/);
  });
});
