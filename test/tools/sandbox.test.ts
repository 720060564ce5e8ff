import { existsSync } from "node:fs";
import { readFile, readdir, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBashTool } from "../../src/tools/bash.js";
import { bwrapArgs, detectSandbox, type HostLayout, type SandboxContext } from "../../src/tools/sandbox.js";
import type { Mode, ToolContext } from "../../src/tools/types.js";
import { makeWorkspace, type Workspace } from "./fixture.js";

const layout: HostLayout = {
  system: [{ path: "/usr" }, { path: "/etc" }, { path: "/bin", symlink: "usr/bin" }, { path: "/lib64", symlink: "usr/lib64" }],
  gitPath: "/data/ws/1/checkout/.git",
  resolvConf: "/run/systemd/resolve/stub-resolv.conf",
};
const sctx = (mode: Mode, network = false): SandboxContext => ({
  root: "/data/ws/1/checkout",
  mode,
  network,
  scratchDir: "/data/ws/1/home",
  artifactsDir: "/data/jobs/1/artifacts",
});

/** Pairs like ["--ro-bind", src, dest] as "--ro-bind src dest", for readable assertions. */
function ops(args: string[]): string[] {
  const arity: Record<string, number> = { "--ro-bind": 2, "--bind": 2, "--symlink": 2, "--proc": 1, "--dev": 1, "--tmpfs": 1, "--chdir": 1, "--cap-drop": 1, "--remount-ro": 1 };
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    if (a === "--") {
      out.push(`-- ${args.slice(i + 1).join(" ")}`);
      break;
    }
    const n = arity[a] ?? 0;
    out.push([a, ...args.slice(i + 1, i + 1 + n)].join(" "));
    i += n;
  }
  return out;
}

describe("bwrapArgs", () => {
  it("plan mode: read-only checkout, .git and artifacts re-bound read-only, private /tmp, no network", () => {
    expect(ops(bwrapArgs(sctx("read-only"), ["/bin/bash", "-c", "ls"], layout))).toEqual([
      "--die-with-parent",
      "--new-session",
      "--unshare-all",
      "--cap-drop ALL",
      "--ro-bind /usr /usr",
      "--ro-bind /etc /etc",
      "--symlink usr/bin /bin",
      "--symlink usr/lib64 /lib64",
      "--proc /proc",
      "--dev /dev",
      "--tmpfs /tmp",
      "--bind /data/ws/1/home /data/ws/1/home",
      "--ro-bind /data/ws/1/checkout /data/ws/1/checkout",
      "--ro-bind /data/ws/1/checkout/.git /data/ws/1/checkout/.git",
      "--ro-bind /data/jobs/1/artifacts /data/jobs/1/artifacts",
      "--remount-ro /",
      "--chdir /data/ws/1/checkout",
      "-- /bin/bash -c ls",
    ]);
  });

  it("write mode binds the checkout read-write but keeps .git read-only after it", () => {
    const o = ops(bwrapArgs(sctx("write"), ["true"], layout));
    const rw = o.indexOf("--bind /data/ws/1/checkout /data/ws/1/checkout");
    const git = o.indexOf("--ro-bind /data/ws/1/checkout/.git /data/ws/1/checkout/.git");
    expect(rw).toBeGreaterThan(-1);
    expect(git).toBeGreaterThan(rw);
    expect(o).not.toContain("--share-net");
  });

  it("shares only the egress namespace it is started in, with slirp's resolver bound over the host's, and only when asked", () => {
    const o = ops(bwrapArgs(sctx("read-only", true), ["true"], layout, { resolvConf: "/tmp/crewbot-net-x/resolv.conf" }));
    expect(o).toContain("--share-net");
    expect(o).toContain("--ro-bind /tmp/crewbot-net-x/resolv.conf /run/systemd/resolve/stub-resolv.conf");
    expect(ops(bwrapArgs(sctx("read-only"), ["true"], layout)).join(" ")).not.toContain("resolv");
    // Never the host's network: network on without the namespace is refused.
    expect(() => bwrapArgs(sctx("write", true), ["true"], layout)).toThrow(/egress-only network namespace/);
  });

  it("omits the .git re-bind when there is no .git", () => {
    expect(bwrapArgs(sctx("write"), ["true"], { system: [] }).join(" ")).not.toContain(".git");
  });

  it("never exposes /root, /home, /work, /var or the data dir as a whole", () => {
    const binds = ops(bwrapArgs(sctx("write", true), ["true"], layout, { resolvConf: "/tmp/n/resolv.conf" })).filter((o) => /^--(ro-)?bind /.test(o));
    for (const b of binds) expect(b).not.toMatch(/ (\/root|\/home|\/work|\/var|\/data|\/data\/ws\/1)( |$)/);
  });
});

const sandbox = await detectSandbox();

describe("detectSandbox", () => {
  it("is cached", async () => {
    expect(detectSandbox()).toBe(detectSandbox());
    expect(await detectSandbox()).toEqual(sandbox);
  });
});

describe.skipIf(!sandbox.available)(`sandboxed bash${sandbox.available ? "" : ` — SKIPPED: ${sandbox.reason}`}`, () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await makeWorkspace(sandbox);
  });
  afterAll(() => ws.cleanup());

  const bash = async (mode: Mode, command: string, extra: Partial<ToolContext> = {}) =>
    createBashTool(mode, sandbox).run({ command, timeout: 20 }, ws.ctx(mode, extra));

  describe("plan mode is read-only", () => {
    it.each([
      ["echo x > f.txt", "f.txt"],
      ["touch g.txt", "g.txt"],
      ["mkdir d", "d"],
      ["cp README.md copy.md", "copy.md"],
      ["mount -o remount,bind,rw . 2>&1; touch h.txt", "h.txt"],
      ["umount . 2>&1; touch i.txt", "i.txt"],
    ])("%s fails and creates nothing", async (command, created) => {
      const r = await bash("read-only", command);
      expect(r.isError).toBe(true);
      expect(existsSync(path.join(ws.root, created))).toBe(false);
    });

    it.each(["rm README.md", "rm -rf src", "mv README.md gone.md", "echo x >> README.md", "chmod 000 README.md"])(
      "%s fails and changes nothing",
      async (command) => {
        const r = await bash("read-only", command);
        expect(r.isError).toBe(true);
        expect(await readFile(path.join(ws.root, "README.md"), "utf8")).toBe("# Fixture\n\nSome needle text.\n");
        expect(existsSync(path.join(ws.root, "src", "a.ts"))).toBe(true);
      },
    );

    it("can still read the checkout and the artifacts", async () => {
      expect((await bash("read-only", "cat src/a.ts")).isError).toBe(false);
      expect((await bash("read-only", `cat ${ws.artifacts}/out.log`)).output).toBe("artifact line 1\nartifact line 2\n[exit code 0]");
    });
  });

  describe("write mode", () => {
    it("can write the checkout", async () => {
      const r = await bash("write", "mkdir -p out && echo made > out/new.txt && rm README.md");
      expect(r.output).toBe("(no output)\n[exit code 0]");
      expect(await readFile(path.join(ws.root, "out", "new.txt"), "utf8")).toBe("made\n");
      expect(existsSync(path.join(ws.root, "README.md"))).toBe(false);
      await writeFile(path.join(ws.root, "README.md"), "# Fixture\n\nSome needle text.\n");
    });

    it.each([
      "echo evil >> .git/config",
      "echo '#!/bin/sh' > .git/hooks/pre-commit",
      "rm -rf .git",
      "mv .git git-moved",
      "umount .git 2>&1; echo evil >> .git/config",
      "mount -o remount,bind,rw .git 2>&1; echo evil >> .git/config",
    ])("cannot change .git: %s", async (command) => {
      const r = await bash("write", command);
      expect(r.isError).toBe(true);
      expect(await readFile(path.join(ws.root, ".git", "config"), "utf8")).toBe("[core]\n\ttoken = GIT-SECRET needle\n");
      expect(await readdir(path.join(ws.root, ".git", "hooks"))).toEqual([]);
      expect(existsSync(path.join(ws.root, "git-moved"))).toBe(false);
    });

    it("cannot write the artifacts dir", async () => {
      expect((await bash("write", `echo x > ${ws.artifacts}/forged.log`)).isError).toBe(true);
      expect(existsSync(path.join(ws.artifacts, "forged.log"))).toBe(false);
    });

    it("cannot write outside: /work, the data dir, system dirs", async () => {
      const name = `crewbot-escape-${randomBytes(4).toString("hex")}`;
      for (const target of [`/work/${name}`, `/usr/${name}`, `/etc/${name}`, `/${name}`, `/root/${name}`]) {
        const r = await bash("write", `echo x > ${target}`);
        expect(r.isError, target).toBe(true);
        expect(existsSync(target), target).toBe(false);
      }
      // The test's data dir lives under the host /tmp, so inside the sandbox its path sits on the
      // private /tmp: a write there may succeed but must never reach the host.
      for (const target of [`${path.dirname(ws.root)}/${name}`, `${ws.base}/${name}`]) {
        await bash("write", `echo x > ${target}`);
        expect(existsSync(target), target).toBe(false);
      }
    });

    it("has a private /tmp: the host's files are not there and nothing written there reaches the host", async () => {
      const name = `crewbot-tmp-${randomBytes(4).toString("hex")}`;
      const hostFile = path.join(os.tmpdir(), `crewbot-host-${randomBytes(4).toString("hex")}`);
      await writeFile(hostFile, "host tmp file\n");
      try {
        const r = await bash("write", `echo x > /tmp/${name} && ls -a /tmp && cat ${hostFile}`);
        expect(r.isError).toBe(true);
        expect(r.output.split("\n")).toContain(name);
        expect(r.output).not.toContain("host tmp file");
        expect(existsSync(path.join(os.tmpdir(), name))).toBe(false);
        expect(existsSync(path.join("/tmp", name))).toBe(false);
      } finally {
        await rm(hostFile, { force: true });
      }
    });
  });

  describe.each<Mode>(["read-only", "write"])("what %s mode cannot see", (mode) => {
    it.each([
      ["the data dir next to the checkout", () => `cat ${ws.dataSecret}`],
      ["the data dir by a relative path", () => "cat ../secret.txt"],
      ["a file outside through a symlink", () => "cat link-file-out"],
      ["a directory outside through a symlink", () => "ls link-dir-out/"],
      ["/root", () => "ls /root"],
      ["/home", () => "ls /home"],
      ["/work", () => "ls /work"],
      ["/var", () => "ls /var"],
    ])("%s", async (_what, command) => {
      const r = await bash(mode, command());
      expect(r.isError).toBe(true);
      expect(r.output).not.toMatch(/SECRET/);
    });

    it("host processes and their environment", async () => {
      const r = await bash(mode, "ls /proc | grep -E '^[0-9]+$' | wc -l; cat /proc/1/environ | tr '\\0' '\\n'");
      const count = Number(r.output.split("\n")[0]);
      expect(count).toBeLessThan(10);
      expect(r.output).not.toMatch(/ANTHROPIC|GITHUB|PRIVATE_KEY/);
    });
  });

  describe("network", () => {
    let server: Server;
    let port = 0;
    beforeAll(async () => {
      server = createServer((sock) => sock.end("hello-from-host\n"));
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      port = (server.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it("is off by default", async () => {
      const r = await bash("read-only", `timeout 5 cat < /dev/tcp/127.0.0.1/${port}`);
      expect(r.isError).toBe(true);
      expect(r.output).toMatch(/Connection refused|Network is unreachable/);
      expect(r.output).not.toContain("hello-from-host");
    });

    it.skipIf(sandbox.network?.available !== true)("is on when ctx.network is set, in a namespace of its own: the host's loopback stays out of reach", async () => {
      const r = await bash("read-only", `ip -o -4 addr show dev tap0 | awk '{print $4}'; timeout 5 cat < /dev/tcp/127.0.0.1/${port}`, { network: true });
      expect(r.output.split("\n")[0]).toBe("10.0.2.100/24");
      expect(r.output).toMatch(/Connection refused/);
      expect(r.output).not.toContain("hello-from-host");
    });
  });
});
