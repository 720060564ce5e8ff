/**
 * Sandbox surface: resource exhaustion. Each limit is checked on the host: processes are
 * counted in /proc while the attack runs, files and artifacts are measured on disk afterwards, and
 * nothing of the command may be left running once the tool has returned.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { statfsSync } from "node:fs";
import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DISK_WRITE_MAX_BYTES, MAX_FILE_BYTES, MAX_PROCS, TMP_MAX_BYTES } from "../../src/tools/limits.js";
import { ARTIFACT_MAX_BYTES, OUTPUT_CAP_BYTES } from "../../src/tools/output.js";
import { ALL_VIAS, WRITE_VIAS, hostProcesses, makeHost, sandbox, settle, skipNote, type Host, type Via } from "./sandbox-harness.js";

const GiB = 1024 ** 3;
/**
 * The disk attacks really write several GiB; on a machine with less room than that they would
 * fill its disk instead of testing crewbot. There the mechanism tests (small limits) still run.
 */
const freeBytes = (() => {
  try {
    const fs = statfsSync("/var/tmp");
    return fs.bavail * fs.bsize;
  } catch {
    return 0;
  }
})();
const roomForDiskAttacks = freeBytes > DISK_WRITE_MAX_BYTES + MAX_FILE_BYTES + 8 * GiB;
const tagOf = (): string => `cb${randomBytes(5).toString("hex")}`;

/** Runs an attack while counting, from the host, the processes carrying `tag`; returns the peak. */
async function withPeak<T>(tag: string, cwd: string, run: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = 0;
  let done = false;
  const watcher = (async () => {
    while (!done) {
      peak = Math.max(peak, (await hostProcesses(tag, cwd)).length);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  try {
    return { result: await run(), peak };
  } finally {
    done = true;
    await watcher;
  }
}

/** Bytes used by the files under `dir` (allocated blocks, so sparse files count for what they hold). */
async function usedBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const st = await stat(path.join(entry.parentPath, entry.name)).catch(() => undefined);
    total += (st?.blocks ?? 0) * 512;
  }
  return total;
}

describe.skipIf(!sandbox.available)(`sandbox attacks: resource limits${skipNote}`, () => {
  let host: Host;
  let capHolds = false;
  beforeAll(async () => {
    host = await makeHost();
  });
  afterAll(() => host.cleanup());
  afterEach(async () => {
    // Whatever an attack left in the checkout goes, so the next one starts from the same disk.
    for (const name of await readdir(host.root)) {
      if (name !== ".git" && name !== "README.md") await rm(path.join(host.root, name), { recursive: true, force: true });
    }
  });

  describe("processes", () => {
    it.each(WRITE_VIAS.concat("bash-plan"))("a loop spawning 3000 sleeps is capped (%s)", async (via: Via) => {
      const tag = tagOf();
      const started = Date.now();
      // The count inside comes from the sandbox's own /proc (its pid namespace); the peak from the host's.
      const { result, peak } = await withPeak(tag, host.root, () =>
        // The loop runs in dash, which gives up at the first refused fork (bash retries one for ~15 s);
        // the count is fork-free (a glob).
        host.attack(via, `sh -c 'for i in $(seq 3000); do sleep 1000 & done' 2>/dev/null; set -- /proc/[0-9]*; echo "inside=$#" # ${tag}`, { timeoutS: 30 }),
      );
      expect(Date.now() - started).toBeLessThan(40_000);
      const inside = Number(/inside=(\d+)/.exec(result.output)?.[1] ?? "NaN");
      expect(inside, result.output).toBeGreaterThan(100); // it did run
      expect(inside, result.output).toBeLessThanOrEqual(MAX_PROCS);
      expect(peak, result.output).toBeLessThanOrEqual(MAX_PROCS);
      expect(await settle(async () => (await hostProcesses(tag, host.root)).length === 0)).toBe(true);
      capHolds = true;
    }, 60_000);

    it.each(ALL_VIAS)("a fork bomb is capped, the host can still fork, and nothing survives (%s)", async (via) => {
      // Without a cap this would take the whole machine down: refuse to run it rather than find out.
      expect(capHolds, "no process cap in the sandbox: not running a real fork bomb").toBe(true);
      const tag = tagOf();
      let hostForked = false;
      const { result, peak } = await withPeak(tag, host.root, async () => {
        // The shell stays (sleep) so the bomb runs until the timeout instead of dying with it.
        const pending = host.attack(via, `bomb() { bomb | bomb & }; bomb; sleep 30 # ${tag}`, { timeoutS: 5 });
        await new Promise((r) => setTimeout(r, 2500));
        hostForked = execFileSync("sh", ["-c", "echo forked"], { encoding: "utf8" }).trim() === "forked";
        return pending;
      });
      expect(result.isError).toBe(true);
      expect(result.output).toMatch(/timed out/);
      expect(peak).toBeLessThanOrEqual(MAX_PROCS);
      expect(hostForked).toBe(true);
      expect(await settle(async () => (await hostProcesses(tag, host.root)).length === 0)).toBe(true);
    }, 30_000);
  });

  describe("output", () => {
    it.each(ALL_VIAS)("10 GB of output: the model gets the tail, the host gets at most ARTIFACT_MAX_BYTES (%s)", async (via) => {
      const before = await usedBytes(host.artifacts);
      const started = Date.now();
      const r = await host.attack(via, "yes crewbot | head -c 10G; cat /dev/zero", { timeoutS: 120 });
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(r.isError).toBe(true);
      if (via !== "repo-commands") expect(Buffer.byteLength(r.output)).toBeLessThan(OUTPUT_CAP_BYTES + 1024);
      expect((await usedBytes(host.artifacts)) - before).toBeLessThanOrEqual(ARTIFACT_MAX_BYTES + 64 * 1024);
    }, 90_000);
  });

  describe("wall time and leftovers", () => {
    it.each(ALL_VIAS)("a process ignoring SIGTERM is killed at the timeout, with all its children (%s)", async (via) => {
      const tag = tagOf();
      const started = Date.now();
      const r = await host.attack(via, `trap '' TERM INT HUP; (trap '' TERM; sleep 900) & while :; do sleep 1; done # ${tag}`, { timeoutS: 2 });
      expect(Date.now() - started).toBeLessThan(8000);
      expect(r.isError).toBe(true);
      expect(r.output).toMatch(/timed out/);
      expect(await settle(async () => (await hostProcesses(tag, host.root)).length === 0)).toBe(true);
    }, 20_000);

    it.each(ALL_VIAS)("nohup, setsid and double-forked background jobs do not outlive the command (%s)", async (via) => {
      const tag = tagOf();
      const started = Date.now();
      const r = await host.attack(
        via,
        `nohup sleep 1000 >/dev/null 2>&1 & disown; setsid sleep 1001 & (sleep 1002 &) ; setsid -f sh -c 'sleep 1003' ; echo started # ${tag}`,
      );
      expect(r.output).toContain("started");
      expect(Date.now() - started).toBeLessThan(8000);
      expect(await settle(async () => (await hostProcesses(tag, host.root)).length === 0)).toBe(true);
    }, 20_000);
  });

  describe.each(WRITE_VIAS)("disk (%s)", (via) => {
    it.skipIf(!roomForDiskAttacks)("one file cannot outgrow MAX_FILE_BYTES: fallocate and dd fail", async () => {
      const over = (MAX_FILE_BYTES + GiB) / 1024 ** 2; // MiB
      const r = await host.attack(
        via,
        `fallocate -l ${over}M big1; a=$?; dd if=/dev/zero of=big2 bs=1M count=${over} 2>/dev/null; b=$?; echo "fallocate=$a dd=$b"; exit $((a|b))`,
      );
      expect(r.isError).toBe(true);
      expect(r.output).toMatch(/fallocate=[1-9]\d* dd=153/); // 153 = 128 + SIGXFSZ
      for (const name of ["big1", "big2"]) {
        const size = await stat(path.join(host.root, name)).then((s) => s.size, () => 0);
        expect(size, name).toBeLessThanOrEqual(MAX_FILE_BYTES);
      }
      expect(await usedBytes(host.root)).toBeLessThanOrEqual(MAX_FILE_BYTES + 1024 ** 2);
    }, 60_000);

    it.skipIf(!roomForDiskAttacks)("a stream of files each under the cap is stopped after DISK_WRITE_MAX_BYTES", async () => {
      const per = Math.floor(MAX_FILE_BYTES / 1024 ** 2 / 2); // MiB per file, well under the file cap
      const r = await host.attack(via, `for i in $(seq 40); do head -c ${per}M /dev/zero > f$i; done`, { timeoutS: 120 });
      expect(r.isError).toBe(true);
      expect(r.output).toMatch(/to disk|over the .* limit/);
      expect(await usedBytes(host.root)).toBeLessThan(DISK_WRITE_MAX_BYTES + 2 * GiB);
    }, 120_000);

    it.skipIf(!roomForDiskAttacks)("a burst of preallocated files is reported as over the limit", async () => {
      const r = await host.attack(via, `for i in $(seq 6); do fallocate -l 1G f$i; done; echo done`);
      expect(r.isError).toBe(true);
      expect(r.output).toMatch(/to disk|over the .* limit/);
    }, 60_000);
  });

  it.each(ALL_VIAS)("the private /tmp (RAM) is capped at TMP_MAX_BYTES (%s)", async (via) => {
    const r = await host.attack(via, `head -c ${TMP_MAX_BYTES + GiB} /dev/zero > /tmp/fill; ls -l /tmp/fill | awk '{print "size=" $5}'`);
    const size = Number(/size=(\d+)/.exec(r.output)?.[1] ?? "NaN");
    expect(r.output).toMatch(/No space left on device/);
    expect(size).toBeLessThanOrEqual(TMP_MAX_BYTES);
  }, 30_000);
});
