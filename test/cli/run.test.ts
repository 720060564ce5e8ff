import { existsSync } from "node:fs";
import { readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseCliArgs, type RunArgs } from "../../src/cli/args.js";
import { runCommand } from "../../src/cli/run.js";
import { startFakeAnthropic, type FakeReply, type FakeServer } from "../helpers/fake-anthropic.js";
import { gitSync, makeRepo, tempDir } from "../helpers/git-repo.js";

const PLAN = "## Goal\nGreet the world.\n\n## Plan\n1. Add **a** greeting module\n2. Mention it in the README\n\n## Risks\nNone.";
const toolUse = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });

let fake: FakeServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function run(argv: string[], script: FakeReply[], env: NodeJS.ProcessEnv = {}) {
  fake = await startFakeAnthropic(script);
  const dataDir = await tempDir("crewbot-data-");
  const out: string[] = [];
  const err: string[] = [];
  const args = parseCliArgs(["run", ...argv]) as RunArgs;
  expect(args.command).toBe("run");
  const code = await runCommand(args, {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    env: { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: fake.url, CREWBOT_DATA_DIR: dataDir, ...env },
  });
  return { code, stdout: out.join(""), stderr: err.join("\n"), dataDir, requests: fake.requests };
}

const userText = (body: Record<string, any>) =>
  (body.messages[0].content as Array<{ text?: string }>).map((b) => b.text ?? "").join("");

describe("crewbot run", () => {
  it("plans read-only on the checkout in place and prints the plan as a task list", async () => {
    const repo = await makeRepo({ "README.md": "hello\n", "AGENTS.md": "Use tabs.\n" });
    const r = await run(["--repo", repo, "add a greeting"], [
      { content: [toolUse("read", { path: "README.md" }), toolUse("ls", {})] },
      { text: "Scout report: README says hello." },
      { text: PLAN },
    ]);

    expect(r.stderr).toContain("[scout] turn 1 · read README.md · ok");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("## Plan\n- [ ] Add a greeting module\n- [ ] Mention it in the README");
    expect(r.stdout).toMatch(/✅ Done in \d+s · [\d.k]+ tokens · \$\d/);

    // The scout got the real file through the real read tool, numbered.
    const toolResults = r.requests[1]!.body.messages[2].content;
    expect(JSON.stringify(toolResults)).toMatch(/1\\thello/);
    // Only read-only tools, and repository instructions as data.
    expect(r.requests[0]!.body.tools.map((t: { name: string }) => t.name).sort()).toEqual(["bash", "find", "grep", "ls", "read", "scratch_write"]);
    expect(userText(r.requests[0]!.body)).toMatch(/<context>[\s\S]*source="AGENTS.md"[\s\S]*Use tabs\.[\s\S]*<\/context>[\s\S]*<task>[\s\S]*add a greeting/);
    // The planner gets the scout's report.
    expect(userText(r.requests[2]!.body)).toContain("Scout report: README says hello.");
    expect(gitSync(repo, "status", "--porcelain")).toBe("");
  });

  it("implements on a fresh worktree, prints the diff and ticks finished steps, leaving the user's tree alone", async () => {
    const repo = await makeRepo({ "README.md": "hello\n" });
    await writeFile(path.join(repo, "notes.txt"), "my uncommitted work\n");
    const r = await run(["--repo", repo, "--chain", "implement", "--json", "add a greeting"], [
      { text: "Scout report." },
      { text: PLAN },
      {
        content: [
          toolUse("write", { path: "src/greet.ts", content: "export const greet = () => 'hi';\n" }),
          toolUse("edit", { path: "README.md", oldText: "hello", newText: "hello, see src/greet.ts" }),
        ],
      },
      { text: "[DONE:1]\n[DONE:2]\n## Completed\nBoth.\n## Files Changed\n- `src/greet.ts`\n## Notes\nNone." },
    ]);

    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ ok: true, chain: "implement", mode: "write", stopReason: "done" });
    expect(result.plan.done).toEqual([1, 2]);
    expect(result.steps.map((s: { agent: string; mode: string }) => `${s.agent}:${s.mode}`)).toEqual([
      "scout:plan",
      "planner:plan",
      "worker:write",
    ]);
    expect(result.diff).toContain("+export const greet = () => 'hi';");
    expect(result.diff).toContain("+hello, see src/greet.ts");
    expect(await readFile(result.patchFile, "utf8")).toBe(result.diff);

    // Scout and planner were offered no write tools; the worker was.
    const toolNames = (i: number) => r.requests[i]!.body.tools.map((t: { name: string }) => t.name);
    expect(toolNames(0)).not.toContain("write");
    expect(toolNames(1)).not.toContain("edit");
    expect(toolNames(2)).toEqual(expect.arrayContaining(["edit", "write"]));

    // The user's working tree: untouched, their uncommitted file still there, no worktree left behind.
    expect(await readFile(path.join(repo, "README.md"), "utf8")).toBe("hello\n");
    expect(existsSync(path.join(repo, "src"))).toBe(false);
    expect(gitSync(repo, "status", "--porcelain")).toBe("?? notes.txt\n");
    expect(gitSync(repo, "worktree", "list").trim().split("\n")).toHaveLength(1);
    const jobs = await readdir(path.join(r.dataDir, "jobs"));
    expect(await readdir(path.join(r.dataDir, "jobs", jobs[0]!))).toEqual(["artifacts"]);
  });

  it("stops at a budget with the reason and exit status 1", async () => {
    const repo = await makeRepo({ "README.md": "hello\n" });
    const r = await run(["--repo", repo, "--max-turns", "1", "plan it"], [{ content: [toolUse("read", { path: "README.md" })] }]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("⏸ Stopped: step 1 (scout): turn budget reached (1 turns)");
    expect(r.stderr).toContain("crewbot: step 1 (scout): turn budget reached");
  });

  it("fails a plan run whose planner wrote no plan", async () => {
    const repo = await makeRepo({ "README.md": "hello\n" });
    const r = await run(["--repo", repo, "plan it"], [{ text: "report" }, { text: "I think it is fine." }]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("❌ Failed: step 2 (planner): the planner gave no plan");
  });

  it("reports a provider failure as such", async () => {
    const repo = await makeRepo({ "README.md": "hello\n" });
    const r = await run(["--repo", repo, "plan it"], [{ error: { status: 401, message: "invalid x-api-key" } }]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("❌ Failed: step 1 (scout): provider error: 401");
  });

  it.each([
    [{ ANTHROPIC_API_KEY: "" }, ".", "ANTHROPIC_API_KEY is not set"],
    [{}, "/", "is not a git repository"],
  ])("refuses to start without what it needs (%j, %s)", async (env, repo, message) => {
    const r = await run(["--repo", repo, "x"], [], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(message);
    expect(r.requests).toHaveLength(0);
  });

  it("names the available chains when asked for an unknown one", async () => {
    const repo = await makeRepo({ "README.md": "hello\n" });
    const r = await run(["--repo", repo, "--chain", "deploy", "x"], []);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown chain "deploy"; available: ask, describe, implement, implement-and-review, plan, plan-wide, review');
  });

  it("names the broken file of a repository's agent override", async () => {
    const repo = await makeRepo({ ".github/crewbot/agents/planner.md": "---\nname: planner\ntools: read, fly\n---\nbody\n" });
    const r = await run(["--repo", repo, "x"], []);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\.github\/crewbot\/agents\/planner\.md: (description|tools)/);
  });
});

describe("crewbot run without a working sandbox", () => {
  async function brokenBwrap(): Promise<string> {
    const file = path.join(await tempDir("crewbot-fake-bwrap-"), "bwrap");
    await writeFile(file, "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n", { mode: 0o755 });
    return file;
  }

  it("refuses a write chain with exit status 1, naming the sandbox and the flag, and runs nothing", async () => {
    const repo = await makeRepo({ "README.md": "hello\n" });
    const r = await run(["--repo", repo, "--chain", "implement", "add a greeting"], [{ text: "never" }], { CREWBOT_BWRAP: await brokenBwrap() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^crewbot: no OS sandbox on this worker \(bubblewrap does not work here: bwrap: No permissions to creating new namespace\): crewbot runs no commands without one\. .*pass --allow-unsandboxed/);
    expect(r.requests).toHaveLength(0);
  });

  it("runs it with --allow-unsandboxed, warning that it does", async () => {
    const repo = await makeRepo({ "README.md": "hello\n" });
    const r = await run(
      ["--repo", repo, "--chain", "implement", "--allow-unsandboxed", "add a greeting"],
      [{ text: "Scout report." }, { text: PLAN }, { content: [toolUse("bash", { command: "echo hi > greeting.txt" })] }, { text: "[DONE:1]\n[DONE:2]\n## Completed\nDone." }],
      { CREWBOT_BWRAP: await brokenBwrap() },
    );
    expect(r.stderr).toContain("crewbot: warning: commands run WITHOUT an OS sandbox");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("+hi");
  });

  it("still plans read-only, without bash", async () => {
    const repo = await makeRepo({ "README.md": "hello\n" });
    const r = await run(["--repo", repo, "add a greeting"], [{ text: "Scout report." }, { text: PLAN }], { CREWBOT_BWRAP: await brokenBwrap() });
    expect(r.code).toBe(0);
    expect(r.requests[0]!.body.tools.map((t: { name: string }) => t.name)).not.toContain("bash");
  });
});

describe("crewbot run and the operator's model settings", () => {
  it("a bad CREWBOT_PRICES file stops the run with exit status 1, naming the file, before any model request", async () => {
    const repo = await makeRepo({ "README.md": "hello\n" });
    const prices = path.join(await tempDir("crewbot-prices-"), "prices.yml");
    await writeFile(prices, "claude-x:\n  input: cheap\n");
    const r = await run(["--repo", repo, "add a greeting"], [{ text: "never" }], { CREWBOT_PRICES: prices });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(prices);
    expect(r.requests).toHaveLength(0);
  });
});
