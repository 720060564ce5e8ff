/**
 * "Network on" for the sandbox: a network namespace of its own with user-mode networking
 * (slirp4netns), so a command reaches the outside world the way any client of this host does,
 * but never the host itself — not its loopback services (the app, Redis), not its own
 * addresses, not private, link-local or metadata ranges.
 *
 * The namespace belongs to a holder process (`unshare --user --net`), not to the sandbox: the
 * routes are set there from outside (`nsenter`), bubblewrap is started inside it and nests its
 * own user namespace below, so the sandboxed command holds no capability over the routes.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, readlink, rm, writeFile } from "node:fs/promises";
import { BlockList, isIPv4 } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { SAFE_PATH } from "./env.js";
import { findExecutable, runProcess } from "./spawn.js";

/** slirp4netns's default network: the namespace is 10.0.2.100, the host's loopback would be .2, its DNS forwarder .3. */
export const SLIRP = { cidr: "10.0.2.0/24", gateway: "10.0.2.2", dns: "10.0.2.3", device: "tap0" } as const;

/**
 * IPv4 ranges a sandboxed command never reaches: "this network", RFC 1918, carrier-grade NAT
 * (some clouds' metadata lives there), link-local (cloud metadata at 169.254.169.254), IETF
 * protocol assignments, benchmarking, multicast and reserved. 127/8 is the namespace's own lo.
 */
export const BLOCKED_RANGES = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "224.0.0.0/4",
  "240.0.0.0/4",
] as const;

/** The variable an operator names internal destinations with (an internal registry). */
export const ALLOW_CIDRS_VAR = "CREWBOT_SANDBOX_ALLOW_CIDRS";

/**
 * `CREWBOT_SANDBOX_ALLOW_CIDRS`: comma- or space-separated IPv4 CIDRs (a bare address is a /32).
 * Throws naming the variable on anything else; loopback and slirp's own network are refused,
 * since the host itself is never a destination.
 */
export function parseAllowCidrs(value: string | undefined): string[] {
  const out: string[] = [];
  for (const item of (value ?? "").split(/[\s,]+/).filter(Boolean)) {
    const [addr = "", bits = "32", extra] = item.split("/");
    const prefix = Number(bits);
    if (extra !== undefined || !isIPv4(addr) || !/^\d{1,2}$/.test(bits) || prefix > 32) {
      throw new Error(`${ALLOW_CIDRS_VAR}: "${item}" is not an IPv4 address or CIDR (like 10.1.2.0/24)`);
    }
    const cidr = `${networkOf(addr, prefix)}/${prefix}`;
    for (const [own, why] of [["127.0.0.0/8", "the loopback"], [SLIRP.cidr, "the sandbox's own link"]] as const) {
      if (overlaps(cidr, own)) throw new Error(`${ALLOW_CIDRS_VAR}: "${item}" overlaps ${own} (${why}); the host itself is never reachable from the sandbox`);
    }
    out.push(cidr);
  }
  return out;
}

function toInt(addr: string): number {
  return addr.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

function fromInt(n: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join(".");
}

function networkOf(addr: string, prefix: number): string {
  const size = 2 ** (32 - prefix);
  return fromInt(Math.floor(toInt(addr) / size) * size);
}

function overlaps(a: string, b: string): boolean {
  const [aa = "", ab = "32"] = a.split("/");
  const [ba = "", bb = "32"] = b.split("/");
  const list = new BlockList();
  list.addSubnet(ba, Number(bb));
  if (list.check(aa)) return true;
  const other = new BlockList();
  other.addSubnet(aa, Number(ab));
  return other.check(ba);
}

/** This host's own IPv4 addresses (every interface but loopback): a server bound to 0.0.0.0 answers on them. */
export function hostAddresses(): string[] {
  const out = new Set<string>();
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) if (a.family === "IPv4" && !a.internal) out.add(a.address);
  }
  return [...out].sort();
}

/**
 * The `ip` commands that shape the namespace after slirp4netns configured it: every blocked range
 * and each of the host's own addresses blackholed, slirp's host-loopback alias too (slirp already
 * refuses it; this holds should that flag ever be lost), then the operator's allowed ranges routed
 * through the gateway — more specific than a blackhole, or replacing one of the same size.
 */
export function egressRoutes(opts: { hostAddresses: readonly string[]; allow: readonly string[] }): string[][] {
  const routes: string[][] = [];
  const blackholes = [...BLOCKED_RANGES, `${SLIRP.gateway}/32`, ...opts.hostAddresses.map((a) => `${a}/32`)];
  for (const cidr of new Set(blackholes)) routes.push(["ip", "route", "add", "blackhole", cidr]);
  for (const cidr of opts.allow) routes.push(["ip", "route", "replace", cidr, "via", SLIRP.gateway, "dev", SLIRP.device]);
  return routes;
}

/** The programs "network on" needs, or why it cannot be had here. */
export function networkPrograms(): { unshare: string; nsenter: string; slirp4netns: string; ip: string } | { missing: string } {
  const found = { unshare: findExecutable("unshare"), nsenter: findExecutable("nsenter"), slirp4netns: findExecutable("slirp4netns"), ip: findExecutable("ip", ["/usr/sbin", "/sbin"]) };
  const missing = Object.entries(found).filter(([, p]) => p === undefined).map(([name]) => (name === "ip" ? "ip (iproute2)" : name));
  if (missing.length > 0) return { missing: `${missing.join(", ")} not installed` };
  return found as { unshare: string; nsenter: string; slirp4netns: string; ip: string };
}

const READY_TIMEOUT_MS = 10_000;

/** An open egress-only namespace; `close()` ends its holder and slirp4netns. */
export class EgressNetwork {
  private constructor(
    private readonly holder: ChildProcess,
    private readonly slirp: ChildProcess,
    private readonly nsenter: string,
    /** A resolv.conf naming slirp's DNS forwarder, to be bound over the host's inside the sandbox. */
    readonly resolvConf: string,
    private readonly dir: string,
  ) {}

  /** argv that runs `argv` inside the namespace (bubblewrap then nests its own user namespace in it). */
  enter(argv: readonly string[]): string[] {
    return [this.nsenter, "--target", String(this.holder.pid), "--user", "--net", "--", ...argv];
  }

  static async open(opts: { allow: readonly string[] }): Promise<EgressNetwork> {
    const programs = networkPrograms();
    if ("missing" in programs) throw new Error(`the sandbox's network needs ${programs.missing}`);
    const dir = await mkdtemp(path.join(os.tmpdir(), "crewbot-net-"));
    const resolvConf = path.join(dir, "resolv.conf");
    await writeFile(resolvConf, `nameserver ${SLIRP.dns}\noptions edns0\n`, { mode: 0o644 });
    const env = { PATH: `${SAFE_PATH}:/usr/sbin:/sbin` };
    // The holder only waits for its stdin to close, which it does when this process dies, too.
    const holder = spawn(programs.unshare, ["--user", "--map-root-user", "--net", "--", "cat"], { env, stdio: ["pipe", "ignore", "pipe"] });
    let slirp: ChildProcess | undefined;
    const fail = async (why: string): Promise<never> => {
      holder.kill("SIGKILL");
      slirp?.kill("SIGKILL");
      await rm(dir, { recursive: true, force: true });
      throw new Error(`the sandbox's network could not be set up: ${why}`);
    };
    try {
      await waitForNamespace(holder);
      // fd 3: slirp writes "1" once tap0 is up; fd 4: slirp exits when it closes (our death included).
      slirp = spawn(
        programs.slirp4netns,
        ["--configure", "--mtu=65520", "--disable-host-loopback", "--enable-sandbox", "--enable-seccomp", "--ready-fd=3", "--exit-fd=4", String(holder.pid), SLIRP.device],
        { env, stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] },
      );
      let slirpErr = "";
      slirp.stderr?.on("data", (c: Buffer) => (slirpErr = (slirpErr + c.toString("utf8")).slice(-2000)));
      const ready = await Promise.race([
        once(slirp.stdio[3] as Readable, "data").then(() => true),
        once(slirp, "exit").then(() => false),
        new Promise<false>((r) => setTimeout(() => r(false), READY_TIMEOUT_MS).unref()),
      ]);
      if (!ready) return await fail(`slirp4netns did not start (${lastLine(slirpErr) || "no message"})`);
      const ns = [programs.nsenter, "--target", String(holder.pid), "--user", "--net", "--"];
      for (const route of egressRoutes({ hostAddresses: hostAddresses(), allow: opts.allow })) {
        let out = "";
        const res = await runProcess([...ns, programs.ip, ...route.slice(1)], { cwd: "/", env, timeoutMs: 5000, onData: (c) => (out += c.toString("utf8")) });
        if (res.exitCode !== 0) return await fail(`${route.join(" ")}: ${lastLine(out) || res.spawnError || `exit ${res.exitCode}`}`);
      }
      return new EgressNetwork(holder, slirp, programs.nsenter, resolvConf, dir);
    } catch (error) {
      return fail((error as Error).message);
    }
  }

  async close(): Promise<void> {
    const gone = (p: ChildProcess) => (p.exitCode !== null || p.signalCode !== null ? Promise.resolve() : once(p, "exit").then(() => undefined));
    const done = Promise.all([gone(this.slirp), gone(this.holder)]);
    // The holder holds nothing but the namespace; slirp4netns ends on SIGTERM (its exit fd is for our death).
    this.slirp.kill("SIGTERM");
    this.holder.kill("SIGKILL");
    const timer = setTimeout(() => this.slirp.kill("SIGKILL"), 2000);
    await done;
    clearTimeout(timer);
    await rm(this.dir, { recursive: true, force: true });
  }
}

/**
 * `unshare` execs `cat` once the namespaces exist and its user namespace's id maps are written:
 * wait for that exec (slirp4netns and nsenter join the user namespace, which needs the maps).
 */
async function waitForNamespace(holder: ChildProcess): Promise<void> {
  const own = await readlink("/proc/self/ns/net");
  let err = "";
  holder.stderr?.on("data", (c: Buffer) => (err = (err + c.toString("utf8")).slice(-2000)));
  for (let i = 0; i < 500; i++) {
    if (holder.exitCode !== null || holder.signalCode !== null) throw new Error(`unshare failed: ${lastLine(err) || `exit ${holder.exitCode}`}`);
    const ns = await readlink(`/proc/${holder.pid}/ns/net`).catch(() => own);
    const comm = await readFile(`/proc/${holder.pid}/comm`, "utf8").catch(() => "");
    if (ns !== own && comm.trim() === "cat") return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("unshare did not make a network namespace");
}

function lastLine(text: string): string {
  return text.trim().split("\n").filter((l) => !l.startsWith("WARNING: Support for seccomp is experimental")).pop()?.trim() ?? "";
}
