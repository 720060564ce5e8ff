import { existsSync } from "node:fs";
import { mkdir, readFile, realpath, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { detectSandbox } from "../../src/tools/sandbox.js";
import type { SandboxInfo } from "../../src/tools/types.js";
import { keepSetupOutOfCommits, outputTail, runRepoCommands, TAIL_CHARS, type RunCommandsOptions } from "../../src/workspace/repo-commands.js";
import { gitSync, makeRepo, tempDir } from "../helpers/git-repo.js";

// These test the runner itself; running it without a sandbox takes the operator's opt-in.
const NO_SANDBOX: SandboxInfo = { available: false, reason: "test", allowUnsandboxed: true };

async function setup(sandbox: SandboxInfo = NO_SANDBOX): Promise<RunCommandsOptions & { repo: string }> {
  const repo = await realpath(await makeRepo({ "README.md": "# hi\n", "package.json": "{}\n" }));
  const job = await realpath(await tempDir("crewbot-cmds-"));
  const dirs = { scratchDir: path.join(job, "scratch"), artifactsDir: path.join(job, "artifacts") };
  await Promise.all(Object.values(dirs).map((d) => mkdir(d)));
  return { repo, phase: "setup", root: repo, ...dirs, sandbox, network: false, timeoutMs: 10_000, signal: new AbortController().signal };
}

describe("runRepoCommands", () => {
  it("runs in order in the checkout, keeps each whole output as an artifact, and stops at the first failure", async () => {
    const o = await setup();
    const results = await runRepoCommands(["pwd; echo one", "echo two >&2; exit 4", "echo three"], o);
    expect(results.map(({ command, ok, status, tail }) => ({ command, ok, status, tail }))).toEqual([
      { command: "pwd; echo one", ok: true, status: "exit code 0", tail: `${o.repo}\none` },
      { command: "echo two >&2; exit 4", ok: false, status: "exit code 4", tail: "two" },
    ]);
    expect(await readFile(results[0]!.artifact, "utf8")).toBe(`${o.repo}\none\n`);
    expect(path.dirname(results[1]!.artifact)).toBe(o.artifactsDir);
  });

  it("gives the command no secret of the app's environment", async () => {
    process.env.CREWBOT_TEST_SECRET = "ghs_secret_for_the_env_test";
    try {
      const o = await setup();
      const [result] = await runRepoCommands(["env"], o);
      expect(result!.tail).not.toContain("ghs_secret_for_the_env_test");
      expect(result!.tail).toContain(`HOME=${o.scratchDir}`);
    } finally {
      delete process.env.CREWBOT_TEST_SECRET;
    }
  });

  it("kills a command at its time limit and says so", async () => {
    const o = await setup();
    const [result] = await runRepoCommands(["echo started; sleep 30"], { ...o, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, status: "timed out after 0 s", tail: "started" });
  });

  it("stops when the job is cancelled", async () => {
    const o = await setup();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const results = await runRepoCommands(["sleep 30", "echo never"], { ...o, signal: controller.signal });
    expect(results.map((r) => r.status)).toEqual(["cancelled"]);
  });

  it("keeps the last lines of a long output for the comment, all of it in the artifact", async () => {
    const o = await setup();
    const [result] = await runRepoCommands(["seq 1 100000"], o);
    expect(result!.tail.split("\n").at(-1)).toBe("100000");
    expect(result!.tail.length).toBeLessThanOrEqual(TAIL_CHARS);
    expect((await readFile(result!.artifact, "utf8")).split("\n")[0]).toBe("1");
  });

  it("runs in the sandbox when there is one: nothing outside the checkout can be written", async () => {
    const sandbox = await detectSandbox();
    if (!sandbox.available) return expect(sandbox.reason).toBeTruthy(); // .ci/run installs bubblewrap
    const o = await setup(sandbox);
    const outside = path.join(path.dirname(o.artifactsDir), "outside");
    const results = await runRepoCommands([`echo x > made-here && echo y > ${outside}; echo done`], o);
    expect(results[0]!.tail).toContain("done");
    expect(existsSync(path.join(o.repo, "made-here"))).toBe(true);
    expect(existsSync(outside)).toBe(false);
  });
});

describe("outputTail", () => {
  it.each([
    ["", ""],
    ["a\nb\n\n", "a\nb"],
    [Array.from({ length: 50 }, (_, i) => `l${i}`).join("\n"), Array.from({ length: 40 }, (_, i) => `l${i + 10}`).join("\n")],
  ])("%#", (input, expected) => expect(outputTail(input)).toBe(expected));

  it("cuts one huge line to the limit", () => {
    const tail = outputTail("x".repeat(10_000));
    expect(tail).toHaveLength(TAIL_CHARS);
    expect(tail.startsWith("…")).toBe(true);
  });
});

describe("keepSetupOutOfCommits", () => {
  it("ignores what setup created and puts back what it changed, so `git add --all` stages only later work", async () => {
    const { repo } = await setup();
    await mkdir(path.join(repo, "node_modules", "dep"), { recursive: true });
    await writeFile(path.join(repo, "node_modules", "dep", "index.js"), "x");
    await writeFile(path.join(repo, "weird *[name]?.txt"), "x");
    await writeFile(path.join(repo, "package.json"), "{ changed }\n");

    expect(await keepSetupOutOfCommits(repo)).toEqual(["package.json"]);
    expect(await readFile(path.join(repo, "package.json"), "utf8")).toBe("{}\n");
    expect(gitSync(repo, "status", "--porcelain", "--untracked-files=all")).toBe("");

    // Later work is still seen, including a new file next to an ignored one.
    await writeFile(path.join(repo, "weird name.txt"), "new");
    expect(gitSync(repo, "status", "--porcelain", "--untracked-files=all")).toBe('?? "weird name.txt"\n');
  });

  it("does nothing when setup left the checkout clean", async () => {
    const { repo } = await setup();
    expect(await keepSetupOutOfCommits(repo)).toEqual([]);
    expect(gitSync(repo, "status", "--porcelain")).toBe("");
  });
});

describe("keepSetupOutOfCommits and repositories planted in the checkout", () => {
  it("never looks into a submodule's directory that setup filled with a hostile repository", async () => {
    const { repo } = await setup();
    // A submodule entry in HEAD, and in its place a repository whose config names an fsmonitor.
    const sha = gitSync(repo, "rev-parse", "HEAD").trim();
    gitSync(repo, "update-index", "--add", "--cacheinfo", `160000,${sha},sub`);
    gitSync(repo, "commit", "-q", "-m", "submodule");
    const marker = path.join(await tempDir("crewbot-marker-"), "ran");
    const sub = path.join(repo, "sub");
    await mkdir(sub);
    gitSync(sub, "init", "-q");
    await writeFile(path.join(sub, ".gitattributes"), "file filter=evil\n");
    await writeFile(path.join(sub, "file"), "x\n");
    gitSync(sub, "add", "-A");
    gitSync(sub, "commit", "-q", "-m", "x");
    // Its own config: a clean filter git would run to compare the changed file, and an fsmonitor.
    await writeFile(path.join(sub, "evil.sh"), `#!/bin/sh\ntouch ${marker}\ncat\n`, { mode: 0o755 });
    gitSync(sub, "config", "filter.evil.clean", path.join(sub, "evil.sh"));
    gitSync(sub, "config", "core.fsmonitor", path.join(sub, "evil.sh"));
    await writeFile(path.join(sub, "file"), "changed\n");

    await keepSetupOutOfCommits(repo);
    expect(existsSync(marker)).toBe(false);
  });
});
