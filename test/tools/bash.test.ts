import { execFileSync } from "node:child_process";
import { randomInt } from "node:crypto";
import { readFile, readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clampTimeout, createBashTool } from "../../src/tools/bash.js";
import { readTool } from "../../src/tools/read.js";
import { detectSandbox } from "../../src/tools/sandbox.js";
import type { Mode, SandboxInfo, ToolContext } from "../../src/tools/types.js";
import { ToolError } from "../../src/tools/types.js";
import { writeTool } from "../../src/tools/write.js";
import { NO_SANDBOX, makeWorkspace, type Workspace } from "./fixture.js";

const sandbox = await detectSandbox();
const sandboxNote = sandbox.available ? "" : ` — SKIPPED: no sandbox (${sandbox.reason})`;

interface Setup {
  label: string;
  mode: Mode;
  sandbox: SandboxInfo;
}
const setups: Setup[] = [
  // Only with the operator's explicit opt-in (CREWBOT_ALLOW_UNSANDBOXED=1).
  { label: "unsandboxed (allowed), write mode", mode: "write", sandbox: { ...NO_SANDBOX, allowUnsandboxed: true } },
  { label: `sandboxed, plan mode${sandboxNote}`, mode: "read-only", sandbox },
  { label: `sandboxed, write mode${sandboxNote}`, mode: "write", sandbox },
];

/** PIDs of processes whose command line contains `needle` (pgrep -f), excluding pgrep itself. */
function pids(needle: string): string[] {
  try {
    return execFileSync("pgrep", ["-f", needle], { encoding: "utf8" }).trim().split("\n").filter(Boolean);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

async function waitFor(cond: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return cond();
}

describe("clampTimeout", () => {
  it.each([
    [undefined, 120],
    [0, 1],
    [-5, 1],
    [0.2, 1],
    [30, 30],
    [601, 600],
    [1e9, 600],
  ])("%s → %s", (input, expected) => expect(clampTimeout(input)).toBe(expected));
});

describe.each(setups)("bash ($label)", (setup) => {
  let ws: Workspace;
  const skip = !setup.sandbox.available && setup.sandbox !== NO_SANDBOX;
  beforeAll(async () => {
    ws = await makeWorkspace(setup.sandbox);
  });
  afterAll(() => ws.cleanup());

  const run = (command: string, extra: Partial<ToolContext> & { timeout?: number } = {}) => {
    const { timeout, ...ctxExtra } = extra;
    const tool = createBashTool(setup.mode, setup.sandbox);
    return tool.run({ command, ...(timeout !== undefined ? { timeout } : {}) }, ws.ctx(setup.mode, ctxExtra));
  };

  it.skipIf(skip)("runs in the checkout root, combines stdout and stderr, shows the exit code", async () => {
    const r = await run("pwd; echo out; echo err >&2; exit 3");
    expect(r.output).toBe(`${ws.root}\nout\nerr\n[exit code 3]`);
    expect(r.isError).toBe(true);
    const ok = await run("cat README.md");
    expect(ok.output).toBe("# Fixture\n\nSome needle text.\n[exit code 0]");
    expect(ok.isError).toBe(false);
  });

  it.skipIf(skip)("gives the command an empty stdin", async () => {
    expect((await run("cat; echo done", { timeout: 5 })).output).toBe("done\n[exit code 0]");
  });

  it.skipIf(skip)("builds the environment from scratch: no parent variable leaks in", async () => {
    process.env.CREWBOT_TEST_SECRET = "leak-me";
    process.env.ANTHROPIC_API_KEY = "sk-ant-fake";
    try {
      const r = await run("env", { envAllowlist: { NPM_CONFIG_REGISTRY: "https://registry.example", HOME: "/root", "BAD-NAME": "x" } });
      const env = Object.fromEntries(
        r.output
          .split("\n")
          .slice(0, -1)
          .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
      );
      expect(r.output).not.toMatch(/leak-me|sk-ant-fake|CREWBOT_TEST_SECRET|ANTHROPIC_API_KEY|BAD-NAME/);
      const expected = ["PATH", "HOME", "LANG", "PAGER", "GIT_PAGER", "GIT_TERMINAL_PROMPT", "CI", "NO_COLOR", "TERM", "NPM_CONFIG_REGISTRY"];
      const setByShell = ["PWD", "SHLVL", "_", "OLDPWD"];
      expect(Object.keys(env).filter((k) => !setByShell.includes(k)).sort()).toEqual([...expected].sort());
      expect(env).toMatchObject({
        PATH: "/usr/local/bin:/usr/bin:/bin",
        HOME: ws.scratch,
        LANG: "C.UTF-8",
        PAGER: "cat",
        GIT_PAGER: "cat",
        GIT_TERMINAL_PROMPT: "0",
        CI: "1",
        NPM_CONFIG_REGISTRY: "https://registry.example",
      });
    } finally {
      delete process.env.CREWBOT_TEST_SECRET;
      delete process.env.ANTHROPIC_API_KEY;
    }
  });

  it.skipIf(skip)("keeps the last 50 KB of a big output and saves all of it as an artifact the read tool can open", async () => {
    const r = await run("seq 1 100000");
    const m = /\[Output was (.+); showing the last 50 KB\. Full output saved to (\S+);/.exec(r.output);
    expect(m).not.toBeNull();
    const artifact = m?.[2] ?? "";
    expect(artifact.startsWith(`${ws.artifacts}/bash-`)).toBe(true);
    expect(r.output).toMatch(/\n100000\n\[Output was/);
    expect(r.output).not.toMatch(/^1\n2\n/);
    const first = r.output.split("\n")[0] ?? "";
    expect(Number(first) + 1).toBe(Number(r.output.split("\n")[1])); // starts on a whole line
    expect(Buffer.byteLength(r.output)).toBeLessThan(51 * 1024 + 400);
    const full = await readFile(artifact, "utf8");
    expect(full).toBe(`${Array.from({ length: 100000 }, (_, i) => i + 1).join("\n")}\n`);
    const viaRead = await readTool.run({ path: artifact, offset: 99_999 }, ws.ctx(setup.mode));
    expect(viaRead.output).toBe(" 99999\t99999\n100000\t100000");
    await expect(writeTool.run({ path: artifact, content: "x" }, ws.ctx("write"))).rejects.toBeInstanceOf(ToolError);
  });

  it.skipIf(skip)("saves no artifact for a small output", async () => {
    const before = await readdir(ws.artifacts);
    await run("echo small");
    expect(await readdir(ws.artifacts)).toEqual(before);
  });

  it.skipIf(skip)("kills the whole process group on timeout", async () => {
    const tag = `${randomInt(1e6, 9e6)}`;
    const started = Date.now();
    const r = await run(`sleep 77${tag} & sleep 78${tag}`, { timeout: 1 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.output).toMatch(/\[killed: timed out after 1 s\]$/);
    expect(r.isError).toBe(true);
    expect(await waitFor(() => pids(`sleep 7[78]${tag}`).length === 0)).toBe(true);
  });

  it.skipIf(skip)("kills the command and its backgrounded child on abort", async () => {
    const tag = `${randomInt(1e6, 9e6)}`;
    const ac = new AbortController();
    const pending = run(`sleep 100${tag} & sleep 101${tag}; echo never`, { signal: ac.signal });
    try {
      // Anchored: only the two sleeps themselves, not the shell whose command line mentions them.
      expect(await waitFor(() => pids(`^sleep 10[01]${tag}$`).length === 2)).toBe(true);
    } finally {
      ac.abort(); // also when the assertion fails: no stray sleeps left behind
    }
    const r = await pending;
    expect(r.output).toMatch(/\[killed: cancelled\]$/);
    expect(r.output).not.toContain("never");
    // Unanchored: the sleeps, the shell and (sandboxed) bwrap are all gone.
    expect(await waitFor(() => pids(`sleep 10[01]${tag}`).length === 0)).toBe(true);
  });

  it.skipIf(skip)("refuses to start when already aborted", async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(run("echo hi", { signal: ac.signal })).rejects.toThrow(/Cancelled/);
  });

  it.skipIf(skip)("does not let background jobs outlive the command", async () => {
    const tag = `${randomInt(1e6, 9e6)}`;
    const started = Date.now();
    const r = await run(`(sleep 66${tag} &); sleep 65${tag} & echo started`);
    expect(r.output).toBe("started\n[exit code 0]");
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await waitFor(() => pids(`sleep 6[56]${tag}`).length === 0)).toBe(true);
  });

  it.skipIf(skip)("uses the scratch dir as a writable HOME", async () => {
    expect((await run("echo hi > ~/note && cat ~/note")).output).toBe("hi\n[exit code 0]");
  });
});

describe("bash without a sandbox in plan mode", () => {
  it("refuses to run at all", async () => {
    const ws = await makeWorkspace();
    try {
      await expect(createBashTool("read-only", NO_SANDBOX).run({ command: "touch x" }, ws.ctx("read-only"))).rejects.toThrow(/sandbox/);
      expect(await readdir(ws.root)).not.toContain("x");
    } finally {
      await ws.cleanup();
    }
  });
});
