/**
 * Sandbox surface: failing closed. Whoever calls the one command runner (the bash tool, setup,
 * check), a host without a working sandbox runs nothing unless the operator opted in, and network
 * on without the egress-only namespace runs nothing at all — never the host's network.
 */
import { existsSync } from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBashTool } from "../../src/tools/bash.js";
import { runCommand } from "../../src/tools/run-command.js";
import { commandsRefusal, describeSandbox, sandboxPolicy } from "../../src/tools/sandbox-policy.js";
import type { SandboxInfo } from "../../src/tools/types.js";
import { runRepoCommands } from "../../src/workspace/repo-commands.js";
import { sandbox } from "./sandbox-harness.js";

const BROKEN: SandboxInfo = { available: false, reason: "bubblewrap does not work here: bwrap: Can't mount proc on /newroot/proc: Operation not permitted" };

describe("failing closed", () => {
  let dir: string;
  let marker: string;
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "crewbot-failclosed-")));
    marker = path.join(dir, "ran");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const ctx = (info: SandboxInfo, network = false) => ({ root: dir, scratchDir: dir, artifactsDir: dir, mode: "write" as const, network, sandbox: info, envAllowlist: {} });

  it("the command runner refuses without a sandbox, and nothing runs", async () => {
    const res = await runCommand(ctx(BROKEN), `touch ${marker}`, { timeoutMs: 5000 });
    expect(res.spawnError).toMatch(/^no OS sandbox on this worker \(bubblewrap does not work here/);
    expect(existsSync(marker)).toBe(false);
  });

  it("the worker's bash refuses too, even when handed to it directly", async () => {
    // A ToolError: the loop hands it to the model as an error result.
    await expect(
      createBashTool("write", BROKEN).run({ command: `touch ${marker}` }, { ...ctx(BROKEN), readRoots: [], signal: new AbortController().signal }),
    ).rejects.toThrow(/bash is not available: no OS sandbox/);
    expect(existsSync(marker)).toBe(false);
  });

  it("setup and check commands report the refusal as their failure", async () => {
    const results = await runRepoCommands([`touch ${marker}`], { phase: "setup", root: dir, scratchDir: dir, artifactsDir: dir, sandbox: BROKEN, network: true, timeoutMs: 5000, signal: new AbortController().signal });
    expect(results[0]).toMatchObject({ ok: false });
    expect(results[0]!.status).toMatch(/could not start: no OS sandbox/);
    expect(existsSync(marker)).toBe(false);
  });

  it.skipIf(!sandbox.available)("network on without the egress-only namespace runs nothing", async () => {
    const noNet = { ...sandbox, network: { available: false, reason: "slirp4netns not installed" } };
    const res = await runCommand(ctx(noNet, true), `touch ${marker}`, { timeoutMs: 5000 });
    expect(res.spawnError).toMatch(/^the sandbox's network is not available on this worker \(slirp4netns not installed\)/);
    expect(existsSync(marker)).toBe(false);
  });

  it("the operator's opt-in is explicit: only 1 (or true) allows, anything unclear stops the app", () => {
    expect(sandboxPolicy({}).allowUnsandboxed).toBe(false);
    expect(sandboxPolicy({ CREWBOT_ALLOW_UNSANDBOXED: "0" }).allowUnsandboxed).toBe(false);
    expect(sandboxPolicy({ CREWBOT_ALLOW_UNSANDBOXED: "1" }).allowUnsandboxed).toBe(true);
    expect(() => sandboxPolicy({ CREWBOT_ALLOW_UNSANDBOXED: "yes please" })).toThrow(/^CREWBOT_ALLOW_UNSANDBOXED: expected 1/);
    expect(commandsRefusal({ ...BROKEN, allowUnsandboxed: true }, { network: true })).toBeUndefined();
    expect(describeSandbox({ ...BROKEN, allowUnsandboxed: true })).toMatch(/commands run UNSANDBOXED/);
    expect(describeSandbox(BROKEN)).toMatch(/^sandbox: not available \(bubblewrap does not work here.*jobs that run commands fail/);
  });

  it("with the opt-in, the runner runs the command", async () => {
    const res = await runCommand(ctx({ ...BROKEN, allowUnsandboxed: true }), `touch ${marker}`, { timeoutMs: 5000 });
    expect(res.exitCode).toBe(0);
    expect(existsSync(marker)).toBe(true);
    await rm(marker);
  });
});
