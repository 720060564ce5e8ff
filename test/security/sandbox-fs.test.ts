/**
 * Sandbox surface: filesystem and secrets. Every attack goes through the real entry points
 * (bash tool in plan and write mode, runRepoCommands) with the real sandbox, and the harm is checked
 * on the host afterwards.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_VIAS, SECRETS, makeHost, sandbox, skipNote, type Host } from "./sandbox-harness.js";

describe.skipIf(!sandbox.available)(`sandbox attacks: filesystem and secrets${skipNote}`, () => {
  let host: Host;
  let gitBefore: string;
  const savedEnv: Record<string, string | undefined> = {};
  beforeAll(async () => {
    host = await makeHost();
    gitBefore = await host.gitState();
    for (const [k, v] of Object.entries({ ...SECRETS, HOME: host.home })) {
      savedEnv[k] = process.env[k];
      process.env[k] = v;
    }
  });
  afterAll(async () => {
    for (const [k, v] of Object.entries(savedEnv)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await host.cleanup();
  });

  describe.each(ALL_VIAS)("writes outside the checkout (%s)", (via) => {
    const targets = (name: string): Array<[string, string]> => [
      ["a sibling dir of the checkout", path.join(path.dirname(host.root), name)],
      ["the job's artifacts dir", path.join(host.artifacts, name)],
      ["another job's artifacts dir", path.join(host.data, "jobs", "2", "artifacts", name)],
      ["the data dir", path.join(host.data, name)],
      ["the host HOME", path.join(host.home, name)],
      ["/root", path.join("/root", name)],
      ["/etc", path.join("/etc", name)],
      ["/usr/local/bin", path.join("/usr/local/bin", name)],
    ];

    it("cannot create a file in a sibling dir, the artifacts, the data dir, the host HOME, /root, /etc, /usr", async () => {
      const name = `crewbot-escape-${randomBytes(4).toString("hex")}`;
      for (const [what, target] of targets(name)) {
        const r = await host.attack(via, `echo pwned > ${target} || mkdir -p ${target}`);
        expect(r.isError, what).toBe(true);
        expect(existsSync(target), `${what}: ${target}`).toBe(false);
      }
    });

    it("cannot change the job store or another job's artifact", async () => {
      const r = await host.attack(via, `echo x >> ${host.data}/crewbot.db; rm -f ${host.data}/jobs/2/artifacts/other.log; true`);
      expect(r.output).not.toContain("STORE-SECRET");
      expect(await readFile(path.join(host.data, "crewbot.db"), "utf8")).toContain("STORE-SECRET installation tokens\n");
      expect(await readFile(path.join(host.data, "jobs", "2", "artifacts", "other.log"), "utf8")).toBe("OTHER-JOB-SECRET\n");
    });

    it("a marker written to /tmp never appears in the host's /tmp", async () => {
      const name = `crewbot-tmp-marker-${randomBytes(4).toString("hex")}`;
      const r = await host.attack(via, `echo x > /tmp/${name} && ls /tmp`);
      expect(r.output).toContain(name); // the write worked, in the private /tmp
      expect(existsSync(path.join("/tmp", name))).toBe(false);
      expect(existsSync(path.join(os.tmpdir(), name))).toBe(false);
    });
  });

  describe.each(ALL_VIAS)("writes to .git (%s)", (via) => {
    it.each([
      "git config core.hooksPath /tmp",
      "git config --local core.fsmonitor 'touch /tmp/pwned'",
      "echo '[core] sshCommand = evil' >> .git/config",
      "printf '#!/bin/sh\\necho pwned\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit",
      "git commit --allow-empty -m evil",
      "git update-ref refs/heads/main HEAD~0 && echo 'ref: refs/heads/evil' > .git/HEAD",
      "mv .git .git-old",
      "rm -rf .git",
      "ln -sf /tmp .git/hooks/post-checkout",
    ])("%s changes nothing", async (command) => {
      const r = await host.attack(via, command);
      expect(r.isError).toBe(true);
      expect(await host.gitState()).toBe(gitBefore);
      expect(existsSync(path.join(host.root, ".git-old"))).toBe(false);
    });
  });

  describe.each(ALL_VIAS)("reads of secrets (%s)", (via) => {
    it.each([
      ["the environment", "env; cat /proc/self/environ | tr '\\0' '\\n'"],
      ["/proc/1/environ", "cat /proc/1/environ | tr '\\0' '\\n'; for p in /proc/[0-9]*; do cat $p/environ; done 2>/dev/null | tr '\\0' '\\n'"],
      ["the parent's environment", "cat /proc/$PPID/environ /proc/$PPID/cmdline | tr '\\0' '\\n'"],
      ["the host's processes", "ps -eo pid,args e 2>/dev/null || ls /proc"],
    ])("%s holds no app secret", async (_what, command) => {
      const r = await host.attack(via, command);
      for (const [name, value] of Object.entries(SECRETS)) {
        expect(r.output, name).not.toContain(value);
        expect(r.output, name).not.toContain(`${name}=`);
      }
      expect(r.output).not.toContain(String(process.pid) + " node"); // the app is not visible
    });

    it("the host user's ~/.gitconfig is not there, and HOME is the scratch dir", async () => {
      const r = await host.attack(via, `echo "HOME=$HOME"; git config --global --list; cat ~/.gitconfig ${host.home}/.gitconfig /root/.gitconfig`);
      expect(r.output).toContain(`HOME=${host.scratch}`);
      expect(r.output).not.toContain("HOST-GITCONFIG-SECRET");
    });

    it("the job store and other jobs' artifacts cannot be read", async () => {
      const r = await host.attack(
        via,
        `cat ${host.data}/crewbot.db; cat ${host.data}/jobs/2/artifacts/other.log; ls -R ${host.data}/jobs; cat ../../crewbot.db; find / -name crewbot.db 2>/dev/null`,
      );
      expect(r.isError).toBe(true);
      expect(r.output).not.toMatch(/STORE-SECRET|OTHER-JOB-SECRET/);
      expect(r.output).not.toContain(`${host.data}/crewbot.db\n`);
    });
  });

  describe("plan mode (read-only)", () => {
    const readme = (): Promise<string> => readFile(path.join(host.root, "README.md"), "utf8");

    it.each([
      ["a write", "echo x > new.txt", "new.txt"],
      ["remount read-write", "mount -o remount,rw . 2>&1; mount -o remount,bind,rw . 2>&1; touch new.txt", "new.txt"],
      ["a new user namespace with root", "unshare -r sh -c 'mount -o remount,bind,rw . && touch new.txt' 2>&1", "new.txt"],
      ["a new user and mount namespace", "unshare -Urm sh -c 'umount -l . ; touch new.txt' 2>&1", "new.txt"],
      ["nsenter into pid 1", "nsenter -t 1 -a sh -c 'touch new.txt' 2>&1; nsenter -t 1 -m touch new.txt 2>&1", "new.txt"],
      ["a tmpfs over the checkout", "mount -t tmpfs none . 2>&1 && touch new.txt", "new.txt"],
    ])("%s fails and changes nothing", async (_what, command, created) => {
      const r = await host.attack("bash-plan", command);
      expect(r.isError).toBe(true);
      expect(existsSync(path.join(host.root, created))).toBe(false);
      expect(await readme()).toBe("# checkout\n");
      expect(await readdir(host.root)).toEqual([".git", "README.md"]);
    });

    it("cannot regain capabilities: CapEff is empty and nested user namespaces are refused", async () => {
      const r = await host.attack("bash-plan", "grep -E '^Cap(Eff|Prm|Bnd)' /proc/self/status; unshare -U true 2>&1; echo unshare=$?");
      expect(r.output).toMatch(/CapEff:\s+0000000000000000/);
      expect(r.output).toMatch(/CapBnd:\s+0000000000000000/);
      expect(r.output).not.toContain("unshare=0");
    });
  });
});
