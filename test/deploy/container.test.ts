/**
 * The container set-up as shipped: compose.yaml gives the workers what bubblewrap and its
 * egress-only network need and nothing more, Redis has a password and a network of its own,
 * the seccomp profile allows the namespace calls and still refuses the rest, and the image has
 * the programs the sandbox probe looks for. (Docker cannot run here; these read the files.)
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const read = (file: string) => readFile(new URL(`../../${file}`, import.meta.url), "utf8");

describe("compose.yaml", async () => {
  const compose = parse(await read("compose.yaml"));
  const worker = compose.services.worker;

  it("gives the workers bubblewrap's needs: the shipped seccomp profile, no AppArmor mount denial, an unmasked /proc, the TUN device", () => {
    expect(worker.security_opt).toEqual(["seccomp=./deploy/seccomp-bwrap.json", "apparmor=unconfined", "systempaths=unconfined", "no-new-privileges:true"]);
    expect(worker.devices).toEqual(["/dev/net/tun:/dev/net/tun"]);
    expect(worker.cap_drop).toEqual(["ALL"]);
    expect(worker.privileged).toBeUndefined();
    expect(worker.cap_add).toBeUndefined();
    expect(JSON.stringify(compose)).not.toContain("seccomp=unconfined");
  });

  it("gives Redis a password from .env and a network of its own that has no route out", () => {
    expect(compose.services.redis.command).toContain("--requirepass");
    expect(compose.services.redis.command.join(" ")).toContain("${REDIS_PASSWORD:?");
    for (const name of ["app", "worker"]) expect(compose.services[name].environment.REDIS_URL).toBe("redis://:${REDIS_PASSWORD:?set REDIS_PASSWORD in .env}@redis:6379");
    expect(compose.services.redis.networks).toEqual(["backend"]);
    expect(compose.services.redis.ports).toBeUndefined();
    expect(compose.networks.backend.internal).toBe(true);
  });

  it("refers to an .env.example that names every variable it interpolates", async () => {
    const example = await read(".env.example");
    for (const name of ["APP_ID", "PRIVATE_KEY", "WEBHOOK_SECRET", "ANTHROPIC_API_KEY", "REDIS_PASSWORD"]) expect(example).toMatch(new RegExp(`^${name}=`, "m"));
  });
});

describe("deploy/seccomp-bwrap.json", async () => {
  const profile = JSON.parse(await read("deploy/seccomp-bwrap.json"));
  const action = (name: string) => profile.syscalls.find((s: { names: string[] }) => s.names.includes(name))?.action ?? profile.defaultAction;

  it.each(["clone", "clone3", "unshare", "setns", "mount", "umount2", "pivot_root"])("allows %s, which the sandbox is built with", (name) => {
    expect(action(name)).toBe("SCMP_ACT_ALLOW");
  });

  it.each(["init_module", "kexec_load", "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "keyctl", "open_by_handle_at", "reboot", "process_vm_readv"])("refuses %s", (name) => {
    expect(action(name)).toBe("SCMP_ACT_ERRNO");
  });
});

describe("Dockerfile", async () => {
  const dockerfile = await read("Dockerfile");

  it("is a supported Node LTS with the sandbox's programs, as a non-root user", () => {
    expect(dockerfile.match(/^FROM node:(\d+)-/gm)).toEqual(["FROM node:24-", "FROM node:24-"]);
    for (const pkg of ["bubblewrap", "slirp4netns", "iproute2", "git", "tini"]) expect(dockerfile).toMatch(new RegExp(`apt-get install[^\\n]*\\b${pkg}\\b`));
    expect(dockerfile).toMatch(/^USER crewbot$/m);
  });

  it("has the app listen on every interface: Probot binds localhost unless HOST says otherwise, which a published port cannot reach", () => {
    expect(dockerfile).toMatch(/^ENV [^\n]*\bHOST=0\.0\.0\.0\b/m);
  });
});
