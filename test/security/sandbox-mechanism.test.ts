/**
 * Sandbox surface: the mechanisms behind the limits, one by one (runCommand, the single
 * path every bash/setup/check command takes), with limits lowered so each trips in milliseconds.
 */
import { randomBytes } from "node:crypto";
import { stat } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, PidsCgroup, TMP_MAX_BYTES, limitedShellArgv, type Limits } from "../../src/tools/limits.js";
import { runCommand } from "../../src/tools/run-command.js";
import { bwrapArgs, type HostLayout, type SandboxContext } from "../../src/tools/sandbox.js";
import type { SandboxInfo } from "../../src/tools/types.js";
import { NO_SANDBOX } from "../tools/fixture.js";
import { hostProcesses, makeHost, sandbox, settle, type Host } from "./sandbox-harness.js";

const MiB = 1024 ** 2;
/** Whether this host lets crewbot make a pids cgroup (root with a pids hierarchy, as here). */
const hasCgroup = ((): boolean => {
  const probe = PidsCgroup.create(8);
  void probe?.destroy();
  return probe !== undefined;
})();
const small: Limits = { maxProcs: 64, maxFileBytes: MiB, diskWriteMaxBytes: 64 * MiB, outputKillBytes: 4 * MiB };

describe("bwrapArgs with a bwrap 0.8+ (--size, --disable-userns)", () => {
  const ctx: SandboxContext = { root: "/d/ws", mode: "read-only", network: false, scratchDir: "/d/home", artifactsDir: "/d/art" };
  const layout: HostLayout = { system: [{ path: "/usr" }], tmpfsSize: true, disableUserns: true };
  const args = bwrapArgs(ctx, ["true"], layout);

  it("gives the sandbox its own user namespace in which no further one can be made", () => {
    const i = args.indexOf("--unshare-user");
    expect(args).toContain("--unshare-all");
    expect(args.slice(i, i + 2)).toEqual(["--unshare-user", "--disable-userns"]);
  });

  it("sizes the private /tmp", () => {
    const i = args.indexOf("--tmpfs");
    expect(args.slice(i - 2, i + 2)).toEqual(["--size", String(TMP_MAX_BYTES), "--tmpfs", "/tmp"]);
  });

  it("adds neither without the features", () => {
    const plain = bwrapArgs(ctx, ["true"], { system: [{ path: "/usr" }] });
    expect(plain).not.toContain("--size");
    expect(plain).not.toContain("--disable-userns");
  });
});

describe("limitedShellArgv", () => {
  it("sets the limits, then execs the shell with the command untouched (bash: KiB, -u)", () => {
    expect(limitedShellArgv("/bin/bash", "echo 'a b' \"$0\"", small, true)).toEqual([
      "/bin/bash",
      "-c",
      'ulimit -f 1024 -c 0 -u 64 || exit 126; exec "$0" -c "$1"',
      "/bin/bash",
      "echo 'a b' \"$0\"",
    ]);
  });

  it("uses dash's units and flags (512-byte blocks, -p) and leaves the process cap out when asked", () => {
    expect(limitedShellArgv("/bin/sh", "true", small, false)[2]).toBe('ulimit -f 2048 -c 0 || exit 126; exec "$0" -c "$1"');
    expect(limitedShellArgv("/bin/sh", "true", small, true)[2]).toContain("-p 64");
  });
});

// The limits hold without bubblewrap too, where the operator allowed running without it.
const runners: Array<[string, SandboxInfo]> = [["unsandboxed (allowed)", { ...NO_SANDBOX, allowUnsandboxed: true }]];
if (sandbox.available) runners.push(["sandboxed", sandbox]);

describe.each(runners)("runCommand (%s)", (_label, info) => {
  let host: Host;
  beforeAll(async () => {
    host = await makeHost();
  });
  afterAll(() => host.cleanup());
  const ctx = () => ({ ...host.ctx("write"), sandbox: info });
  const run = (command: string, limits: Limits = small, timeoutMs = 10_000) => {
    let out = "";
    return runCommand(ctx(), command, { timeoutMs, limits, onData: (c) => (out += c.toString()) }).then((res) => ({ ...res, out }));
  };

  it("passes the command and $0 through the limit wrapper unchanged, with the limits in force", async () => {
    const r = await run(`echo "$0" 'a  b' $((1+1)); ulimit -f; ulimit -c`);
    expect(r.out).toBe(`/bin/bash a  b 2\n1024\n0\n`);
    expect(r.exitCode).toBe(0);
    expect(r.limit).toBeUndefined();
  });

  it("RLIMIT_FSIZE: a file stops at the cap (SIGXFSZ), the command cannot raise it", async () => {
    const r = await run("ulimit -f unlimited 2>/dev/null; head -c 3M /dev/zero > big");
    expect(r.exitCode).not.toBe(0);
    expect((await stat(path.join(host.root, "big"))).size).toBeLessThanOrEqual(MiB);
  });

  it("kills a command whose output passes outputKillBytes, and passes on none of the excess", async () => {
    let seen = 0;
    const started = Date.now();
    const r = await runCommand(ctx(), "yes", { timeoutMs: 20_000, limits: small, onData: (c) => (seen += c.length) });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.limit).toMatch(/of output/);
    expect(seen).toBeLessThanOrEqual(small.outputKillBytes);
  });

  it("kills a command that writes more than diskWriteMaxBytes, across files each under the file cap", async () => {
    const r = await run("for i in $(seq 1000); do head -c 1000K /dev/zero > f$i; sleep 0.01; done", small, 30_000);
    expect(r.limit).toMatch(/to disk|over the/);
    expect(r.timedOut).toBe(false);
  }, 40_000);

  it.skipIf(!hasCgroup)(
    "with a pids cgroup (root here): caps processes and kills even setsid'd escapees",
    async () => {
      const tag = `cb${randomBytes(5).toString("hex")}`;
      const r = await run(`setsid sleep 1000 & setsid -f sh -c 'sleep 1001' ; ( for i in $(seq 200); do sleep 60 & done ) 2>/dev/null; set -- /proc/[0-9]*; echo n=$# # ${tag}`, small, 30_000);
      expect(r.out).toMatch(/n=\d+/);
      expect(await settle(async () => (await hostProcesses(tag, host.root)).length === 0)).toBe(true);
    },
    40_000,
  );
});

it("the default limits are what the docs say", () => {
  expect(DEFAULT_LIMITS).toEqual({ maxProcs: 1024, maxFileBytes: 2 * 1024 ** 3, diskWriteMaxBytes: 4 * 1024 ** 3, outputKillBytes: 512 * MiB });
});
