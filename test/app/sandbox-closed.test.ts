/**
 * No sandbox, no commands, end to end: with bubblewrap made unavailable (a stand-in program that
 * fails the way bwrap does in a container whose /proc is masked), jobs that would run the worker's
 * commands, `setup` or `check` end ❌ naming the sandbox before anything runs; `/plan` still
 * works, without bash; /healthz and /metrics say so; the operator's opt-in runs the same job.
 */
import { chmod, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { start, type Started } from "../../src/main.js";
import { issueCommentCreated } from "../fixtures/payloads.js";
import { freePort } from "../helpers/app-stand-ins.js";
import { tempDir } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { mockBotUser, mockInstallationToken, mockJobComments, mockPermission, REPO_PATH, stackEnv, startStack, TestOctokit } from "./harness.js";

useNock();

/** Fails like bwrap in a default Docker container. */
async function brokenBwrap(): Promise<string> {
  const dir = await tempDir("crewbot-fake-bwrap-");
  const file = path.join(dir, "bwrap");
  await writeFile(file, "#!/bin/sh\necho 'bwrap: Can'\\''t mount proc on /newroot/proc: Operation not permitted' >&2\nexit 1\n");
  await chmod(file, 0o755);
  return file;
}

const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });

describe("without a working sandbox", () => {
  it.each([
    ["the worker's commands", () => ""],
    ["a setup command", (marker: string) => `implement:\n  setup: ["touch ${marker}-setup"]\n`],
    ["a check command", (marker: string) => `implement:\n  check: ["touch ${marker}-check"]\n`],
  ])("/implement with %s ends ❌ naming the sandbox, before anything runs, nothing pushed", async (_what, config) => {
    const bwrap = await brokenBwrap();
    const marker = path.join(path.dirname(bwrap), "marker");
    const stack = await startStack([{ content: [use("bash", { command: `touch ${marker}-bash` })] }, { text: "never" }], { env: { CREWBOT_BWRAP: bwrap } });
    const payload = issueCommentCreated("/implement", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    mockJobComments({ progressId: 501, edits, trigger: { id: payload.comment.id }, conversation: [], config: { repo: config(marker) } });

    const job = await stack.runToEnd("issue_comment", payload, `sandbox-closed-${config("").length}`);

    expect(job.state).toBe("failed");
    expect(job.outcome).toMatch(/^❌ Failed: no OS sandbox on this worker \(bubblewrap does not work here: bwrap: Can't mount proc on \/newroot\/proc: Operation not permitted\): crewbot runs no commands without one · /);
    expect(edits.at(-1)).toContain("CREWBOT_ALLOW_UNSANDBOXED=1 for trusted repositories only");
    expect(stack.fake.requests).toHaveLength(0); // no agent ran
    for (const suffix of ["-bash", "-setup", "-check"]) expect(existsSync(marker + suffix)).toBe(false);
    expect(stack.git.requests.filter((r) => r.url.includes("git-receive-pack"))).toHaveLength(0); // nothing pushed
  });

  it("/plan still ends ✅, and no agent is offered bash (the failing bwrap found first on the PATH)", async () => {
    const bwrapDir = path.dirname(await brokenBwrap());
    const stack = await startStack([{ text: "Scout report." }, { text: "## Plan\n1. Fix the README" }], { env: { PATH: `${bwrapDir}:${process.env.PATH ?? ""}` } });
    const payload = issueCommentCreated("/plan", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    mockJobComments({ progressId: 502, edits, trigger: { id: payload.comment.id }, conversation: [] });

    const job = await stack.runToEnd("issue_comment", payload, "sandbox-closed-plan");

    expect(job.outcome).toMatch(/^✅ Done/);
    expect(stack.fake.requests).toHaveLength(2);
    for (const request of stack.fake.requests) expect(request.body.tools.map((t: { name: string }) => t.name)).not.toContain("bash");
    expect(edits.at(-1)).toMatch(/bash is not offered in read-only mode: it needs the OS sandbox \(bubblewrap does not work here/);
  });

  it("with CREWBOT_ALLOW_UNSANDBOXED=1 the same /implement runs its commands, and says it ran unsandboxed", async () => {
    const bwrap = await brokenBwrap();
    const marker = path.join(path.dirname(bwrap), "marker");
    const stack = await startStack(
      [
        { text: "Scout report." },
        { text: "## Plan\n1. Fix the README" },
        { content: [use("bash", { command: `touch ${marker}-bash && sed -i s/commmit/commit/ README.md` })] },
        { text: "[DONE:1]\n## Completed\nFixed." },
      ],
      { env: { CREWBOT_BWRAP: bwrap, CREWBOT_ALLOW_UNSANDBOXED: "1" }, files: { "README.md": "# Hello commmit\n" } },
    );
    const payload = issueCommentCreated("/implement", { cloneUrl: stack.cloneUrl, defaultBranch: "main" });
    mockInstallationToken();
    mockBotUser();
    mockPermission("Codertocat", "write");
    const edits: string[] = [];
    mockJobComments({ progressId: 503, edits, trigger: { id: payload.comment.id }, config: { repo: `implement:\n  check: ["touch ${marker}-check"]\n` } })
      .post(`${REPO_PATH}/pulls`)
      .reply(201, { number: 16, html_url: "https://github.com/Codertocat/Hello-World/pull/16" });

    const job = await stack.runToEnd("issue_comment", payload, "sandbox-allowed-implement");

    expect(job.outcome).toMatch(/^✅ Done/);
    expect(existsSync(`${marker}-bash`)).toBe(true);
    expect(existsSync(`${marker}-check`)).toBe(true);
    expect(edits.at(-1)).toContain("commands run WITHOUT an OS sandbox (CREWBOT_ALLOW_UNSANDBOXED=1)");
    const transcript = JSON.stringify(await stack.crewbot.transcripts.store.read(job.id));
    expect(transcript).toContain("commands run WITHOUT an OS sandbox");
  });
});

describe("the start-up verdict", () => {
  let started: Started | undefined;
  afterEach(async () => {
    await started?.stop();
    started = undefined;
  });

  it("is a field of /healthz and a gauge in /metrics", async () => {
    const port = await freePort();
    const env = { ...stackEnv(await tempDir("crewbot-data-"), "http://127.0.0.1:9"), PORT: String(port), HOST: "127.0.0.1", CREWBOT_BWRAP: await brokenBwrap() };
    started = await start({ env, Octokit: TestOctokit, worker: false });
    const health = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as { sandbox: { reason: string } };
    expect(health.sandbox).toMatchObject({ available: false, network: false, allowUnsandboxed: false });
    expect(health.sandbox.reason).toMatch(/^bubblewrap does not work here: bwrap: Can't mount proc/);
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(metrics).toContain('crewbot_sandbox_available{feature="bubblewrap"} 0');
  });

  it("a bad policy variable stops the app, naming it", async () => {
    const env = { ...stackEnv(await tempDir("crewbot-data-"), "http://127.0.0.1:9"), PORT: String(await freePort()), HOST: "127.0.0.1", CREWBOT_SANDBOX_ALLOW_CIDRS: "10.0.0.0/33" };
    await expect(start({ env, Octokit: TestOctokit, worker: false })).rejects.toThrow(/CREWBOT_SANDBOX_ALLOW_CIDRS: "10.0.0.0\/33"/);
  });
});
