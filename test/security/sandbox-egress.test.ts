/**
 * Sandbox surface: the network when it is on (`setup`, `sandbox.network: true`). It must reach the
 * outside world and nothing of the host: not its loopback services, not its own addresses, not
 * private, link-local or metadata ranges. Traffic goes only to this process's listeners on
 * 127.0.0.1 and to a network namespace this test makes itself ("the outside", on documentation
 * and private addresses that exist only there); blocked ranges are checked in the routing table
 * from inside, never by sending to them.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BLOCKED_RANGES, egressRoutes, hostAddresses, parseAllowCidrs } from "../../src/tools/sandbox-network.js";
import { runRepoCommands } from "../../src/workspace/repo-commands.js";
import { ALL_VIAS, makeHost, sandbox, SECRETS, skipNote, type Host } from "./sandbox-harness.js";

const netOn = sandbox.available && sandbox.network?.available === true;
const note = netOn ? "" : skipNote || ` — SKIPPED: ${sandbox.network?.reason}`;

describe("egress routes (pure)", () => {
  it("blackholes every blocked range, slirp's host-loopback alias and the host's own addresses, then routes allowed ranges", () => {
    const routes = egressRoutes({ hostAddresses: ["203.0.113.9", "192.168.1.5"], allow: ["10.9.0.0/16"] }).map((r) => r.join(" "));
    for (const range of ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "100.64.0.0/10", "0.0.0.0/8"]) {
      expect(routes).toContain(`ip route add blackhole ${range}`);
    }
    expect(routes).toContain("ip route add blackhole 10.0.2.2/32");
    expect(routes).toContain("ip route add blackhole 203.0.113.9/32");
    expect(routes).toContain("ip route add blackhole 192.168.1.5/32");
    expect(routes.at(-1)).toBe("ip route replace 10.9.0.0/16 via 10.0.2.2 dev tap0");
  });

  it.each([
    ["", []],
    ["10.1.2.0/24", ["10.1.2.0/24"]],
    ["10.1.2.3, 172.20.0.0/16 192.168.7.9/24", ["10.1.2.3/32", "172.20.0.0/16", "192.168.7.0/24"]],
  ])("CREWBOT_SANDBOX_ALLOW_CIDRS=%j is %j", (value, expected) => {
    expect(parseAllowCidrs(value)).toEqual(expected);
  });

  it.each([
    ["10.0.0.0/33", /not an IPv4 address or CIDR/],
    ["fd00::/8", /not an IPv4 address or CIDR/],
    ["registry.internal", /not an IPv4 address or CIDR/],
    ["127.0.0.1", /overlaps 127.0.0.0\/8/],
    ["0.0.0.0/0", /overlaps 127.0.0.0\/8/],
    ["10.0.2.0/23", /overlaps 10.0.2.0\/24/],
  ])("refuses %s, naming the variable", (value, why) => {
    expect(() => parseAllowCidrs(value)).toThrow(/^CREWBOT_SANDBOX_ALLOW_CIDRS: /);
    expect(() => parseAllowCidrs(value)).toThrow(why);
  });
});

/** A namespace of this test's own, linked to the host by a veth pair: the sandbox's "outside world". */
interface Outside {
  name: string;
  /** 198.51.100.2 (documentation range: public-looking, routed nowhere but here) and 10.213.7.2 (private). */
  publicAddr: string;
  privateAddr: string;
  port: number;
  remove(): void;
}

function makeOutside(): Outside | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = randomBytes(3).toString("hex");
  const name = `crewbot-out-${id}`;
  const [hostIf, nsIf] = [`cbh${id}`, `cbn${id}`];
  const ip = (...args: string[]) => execFileSync("ip", args, { stdio: ["ignore", "pipe", "pipe"] }).toString();
  try {
    ip("netns", "add", name);
    ip("link", "add", hostIf, "type", "veth", "peer", "name", nsIf);
    ip("link", "set", nsIf, "netns", name);
    ip("addr", "add", "198.51.100.1/30", "dev", hostIf);
    ip("addr", "add", "10.213.7.1/30", "dev", hostIf);
    ip("link", "set", hostIf, "up");
    ip("-n", name, "addr", "add", "198.51.100.2/30", "dev", nsIf);
    ip("-n", name, "addr", "add", "10.213.7.2/30", "dev", nsIf);
    ip("-n", name, "link", "set", nsIf, "up");
    ip("-n", name, "link", "set", "lo", "up");
    // Never send anywhere else: both addresses must be routed into this namespace's link.
    for (const addr of ["198.51.100.2", "10.213.7.2"]) if (!ip("route", "get", addr).includes(`dev ${hostIf}`)) throw new Error(`${addr} is not routed to ${hostIf}`);
  } catch {
    try {
      ip("netns", "del", name);
      ip("link", "del", hostIf);
    } catch {
      // partly made
    }
    return undefined;
  }
  return {
    name,
    publicAddr: "198.51.100.2",
    privateAddr: "10.213.7.2",
    port: 0,
    remove: () => {
      try {
        ip("link", "del", hostIf);
      } catch {
        // gone with the namespace
      }
      ip("netns", "del", name);
    },
  };
}

describe.skipIf(!netOn)(`sandbox attacks: network on${note}`, () => {
  let host: Host;
  let tcp: Server;
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    host = await makeHost();
    // Stands for the app's port, Redis, anything of the host's: bound to every address.
    tcp = createServer((sock) => {
      connections++;
      sock.end("hello-from-host\n");
    });
    await new Promise<void>((r) => tcp.listen(0, "0.0.0.0", r));
    port = (tcp.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise<void>((r) => tcp.close(() => r()));
    await host.cleanup();
  });

  describe.each(ALL_VIAS)("%s", (via) => {
    it("has a namespace of its own whose routes blackhole the private, link-local, metadata ranges and the host's addresses", async () => {
      const r = await host.attack(via, "ip -o -4 addr show; ip route show; ip route get 1.1.1.1", { network: true });
      expect(r.output).toMatch(/tap0\s+inet 10\.0\.2\.100\/24/);
      expect(r.output).not.toMatch(/eth\d|ens\d|enp\d/);
      for (const range of BLOCKED_RANGES) expect(r.output).toContain(`blackhole ${range.replace(/\/32$/, "")}`);
      expect(r.output).toMatch(/^blackhole 10\.0\.2\.2 *$/m);
      for (const addr of hostAddresses()) expect(r.output).toMatch(new RegExp(`^blackhole ${addr.replace(/\./g, "\\.")} *$`, "m"));
      // The outside world goes through slirp's gateway.
      expect(r.output).toMatch(/1\.1\.1\.1 via 10\.0\.2\.2 dev tap0/);
    });

    it("cannot reach a listener on the host's 127.0.0.1, nor through slirp's host-loopback alias (the listener sees nothing)", async () => {
      const before = connections;
      const r = await host.attack(
        via,
        `timeout 5 bash -c 'cat < /dev/tcp/127.0.0.1/${port}' 2>&1; echo lo=$?; timeout 5 bash -c 'cat < /dev/tcp/10.0.2.2/${port}' 2>&1; echo gw=$?`,
        { network: true },
      );
      expect(r.output).toMatch(/lo=1/);
      expect(r.output).toMatch(/gw=1/);
      expect(r.output).not.toContain("hello-from-host");
      expect(connections).toBe(before);
    });

    it("reaches a listener inside its own namespace", async () => {
      const serve = `require("net").createServer((s) => s.end("inside\\n")).listen(7777, "127.0.0.1", () => require("net").connect(7777, "127.0.0.1").on("data", (d) => { process.stdout.write(d); process.exit(0); }))`;
      const r = await host.attack(via, `timeout 10 node -e '${serve}'`, { network: true });
      expect(r.output).toContain("inside");
      expect(r.isError).toBe(false);
    });
  });

  it("a setup command cannot read this process's environment nor reach its port", async () => {
    for (const [k, v] of Object.entries(SECRETS)) process.env[k] = v;
    try {
      const before = connections;
      const [res] = await runRepoCommands([`cat /proc/${process.pid}/environ; echo pids=$(ls /proc | grep -cE '^[0-9]+$'); timeout 5 bash -c 'cat < /dev/tcp/127.0.0.1/${port}'; timeout 5 bash -c 'cat < /dev/tcp/10.0.2.2/${port}'; true`], {
        phase: "setup",
        root: host.root,
        scratchDir: host.scratch,
        artifactsDir: host.artifacts,
        sandbox,
        network: true,
        timeoutMs: 30_000,
        signal: new AbortController().signal,
      });
      expect(res!.ok).toBe(true);
      expect(res!.tail).toMatch(new RegExp(`/proc/${process.pid}/environ: No such file or directory`));
      expect(Number(/pids=(\d+)/.exec(res!.tail)?.[1])).toBeLessThan(10); // its own pid namespace: none of the host's processes
      for (const secret of Object.values(SECRETS)) expect(res!.tail).not.toContain(secret);
      expect(res!.tail).not.toContain("hello-from-host");
      expect(connections).toBe(before);
    } finally {
      for (const k of Object.keys(SECRETS)) delete process.env[k];
    }
  });

  describe("the outside world (a namespace this test makes)", () => {
    let outside: Outside | undefined;
    let server: ReturnType<typeof import("node:child_process").spawn> | undefined;
    const outPort = 18_000 + Math.floor(Math.random() * 1000);
    beforeAll(async () => {
      outside = makeOutside();
      if (!outside) return;
      const { spawn } = await import("node:child_process");
      const serve = `const net = require("net"); for (const a of ["198.51.100.2", "10.213.7.2"]) net.createServer((s) => s.end("hello-from-" + a + "\\n")).listen(${outPort}, a, () => console.log("up " + a));`;
      server = spawn("ip", ["netns", "exec", outside.name, process.execPath, "-e", serve], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error("outside listener did not start")), 10_000);
        server!.stdout!.on("data", (c: Buffer) => {
          out += c.toString();
          if (out.split("up ").length > 2) {
            clearTimeout(t);
            resolve();
          }
        });
      });
    });
    afterAll(() => {
      server?.kill("SIGKILL");
      outside?.remove();
    });

    it("is reachable, as a registry would be", async (ctx) => {
      if (!outside) return ctx.skip();
      const r = await host.attack("repo-commands", `timeout 5 bash -c 'cat < /dev/tcp/${outside.publicAddr}/${outPort}'`, { network: true });
      expect(r.output).toContain(`hello-from-${outside.publicAddr}`);
    });

    it("a private destination is blocked, and reachable once the operator allows its range", async (ctx) => {
      if (!outside) return ctx.skip();
      const blocked = await host.attack("repo-commands", `timeout 5 bash -c 'cat < /dev/tcp/${outside.privateAddr}/${outPort}' 2>&1; echo rc=$?`, { network: true });
      expect(blocked.output).not.toContain("hello-from-");
      expect(blocked.output).toMatch(/rc=1/);
      const allowed = { ...sandbox, allowCidrs: parseAllowCidrs("10.213.7.0/30") };
      const [res] = await runRepoCommands([`timeout 5 bash -c 'cat < /dev/tcp/${outside.privateAddr}/${outPort}'; ip route show 10.213.7.0/30`], {
        phase: "setup",
        root: host.root,
        scratchDir: host.scratch,
        artifactsDir: host.artifacts,
        sandbox: allowed,
        network: true,
        timeoutMs: 30_000,
        signal: new AbortController().signal,
      });
      expect(res!.tail).toContain(`hello-from-${outside.privateAddr}`);
      expect(res!.tail).toContain("10.213.7.0/30 via 10.0.2.2 dev tap0");
    });
  });
});
