/**
 * Adversarial suite, resource abuse through the dependency pass: a stranger's pull request names
 * any public package and writes the lockfile, so the tarballs and dependency files are hostile
 * input. A small tarball of huge PAX paths, of countless empty entries, a gzip bomb; a lockfile of
 * 150 000 changed entries; hundreds of paths pointing at one 10 MB blob; patterns that backtrack
 * on a package's text. Each ends in a named reason, fast, with the event loop turning, and the app
 * answers /healthz within a second while a review reads such a tarball.
 */
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { capabilitiesOf, obfuscationMarks } from "../../src/dependencies/code-signals.js";
import { compareVersions, versionMeta } from "../../src/dependencies/compare.js";
import type { TreeReader } from "../../src/dependencies/dependency-reads.js";
import { changedPackages } from "../../src/dependencies/lockfile-changes.js";
import { readTarball, type PackageContents } from "../../src/dependencies/tarball.js";
import { detectDependencies } from "../../src/jobs/review-dependencies.js";
import type { DiffFile } from "../../src/review/diff-lines.js";
import { start, type Started } from "../../src/main.js";
import { pullRequestEvent } from "../fixtures/payloads.js";
import { freePort, signWebhook } from "../helpers/app-stand-ins.js";
import { startFakeAnthropic, type FakeServer } from "../helpers/fake-anthropic.js";
import { gitSync, makeRepo, tempDir } from "../helpers/git-repo.js";
import { useNock } from "../helpers/github.js";
import { startNpmRegistry, type NpmRegistryStandIn } from "../helpers/npm-registry.js";
import { tarOf, type TarEntry } from "../helpers/npm-tarball.js";
import { gitServer, stackEnv, TestOctokit, WEBHOOK_SECRET } from "../app/harness.js";
import { mockReviewJob, push, type Traffic } from "../app/review-harness.js";

const MB = 1024 * 1024;

/** The longest the event loop went without running a 5 ms interval, while `work` ran. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  try {
    const result = await work();
    await new Promise((resolve) => setTimeout(resolve, 10));
    return { result, stallMs };
  } finally {
    clearInterval(timer);
  }
}

/** `n` entries renamed by a header record of about `bytes` each (PAX `path`, or a GNU long name). */
function longPathTarball(n: number, bytes: number, record: "pax" | "gnu-long-path" = "pax"): Buffer {
  const entries: TarEntry[] = [{ type: "file", path: "package/package.json", body: "{}" }];
  for (let i = 0; i < n; i++) {
    const path = `package/${String(i).padStart(6, "0")}${"a".repeat(bytes)}.js`;
    entries.push(record === "pax" ? { type: "pax", records: { path } } : { type: "gnu-long-path", path }, { type: "file", path: `package/f${i}.js`, body: "" });
  }
  return tarOf(entries);
}

const emptyEntriesTarball = (n: number) => tarOf([{ type: "file", path: "package/package.json", body: "{}" }, ...Array.from({ length: n }, (): TarEntry => ({ type: "file", path: "package/e.js", body: "" }))]);

describe("a hostile tarball is read under budgets, with the event loop turning", () => {
  it("301 PAX paths of 1 MB in a 335 KB tarball: not inspected, the header record named, no path kept", async () => {
    const hostile = longPathTarball(301, MB - 50);
    expect(hostile.length).toBeLessThan(400 * 1024);
    const { result, stallMs } = await longestStall(() => readTarball(hostile));
    expect(result).toEqual({ ok: false, notInspected: "its tarball has a header record over 64 KB" });
    expect(stallMs).toBeLessThan(1000);
  });

  it.each(["pax", "gnu-long-path"] as const)("3 000 paths of 60 KB (%s records, each under the record cap): the paths budget is named", async (record) => {
    const hostile = longPathTarball(3000, 60 * 1024, record);
    const { result, stallMs } = await longestStall(() => readTarball(hostile));
    expect(result).toEqual({ ok: false, notInspected: "its tarball's paths and header records take over 8 MB" });
    expect(stallMs).toBeLessThan(1000);
  });

  it("200 000 empty entries in a 432 KB tarball: over the entry limit", async () => {
    const hostile = emptyEntriesTarball(200_000);
    const { result, stallMs } = await longestStall(() => readTarball(hostile));
    expect(result).toEqual({ ok: false, notInspected: "its tarball has over 100,000 entries" });
    expect(stallMs).toBeLessThan(1000);
  });

  it("a gzip bomb (500 MB of zeros in 500 KB): over the unpacked limit, unpacked a piece at a time", async () => {
    const bomb = tarOf([{ type: "file", path: "package/package.json", body: "{}" }, { type: "file", path: "package/z.bin", body: Buffer.alloc(500 * MB) }]);
    expect(bomb.length).toBeLessThan(MB);
    const { result, stallMs } = await longestStall(() => readTarball(bomb));
    expect(result).toEqual({ ok: false, notInspected: "its tarball unpacks to over 100 MB" });
    expect(stallMs).toBeLessThan(1000);
  });

  it("an abort ends a reading at once: it rejects with the signal's reason", async () => {
    const controller = new AbortController();
    const reading = readTarball(emptyEntriesTarball(90_000), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("job cancelled")), 5);
    await expect(reading).rejects.toThrow("job cancelled");
  });
});

const lockText = (n: number, version: string) =>
  JSON.stringify({ name: "app", lockfileVersion: 3, packages: { "": { name: "app" }, ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`node_modules/p${i}`, { version }])) } }, null, 2);
const reader = (files: Record<string, string>): TreeReader => ({ read: async (path) => files[path] });

describe("a hostile lockfile or manifest is read under budgets", () => {
  it("150 000 changed entries: no crash, 10 000 kept, the rest counted in a named problem", async () => {
    const base = reader({ "package-lock.json": lockText(150_000, "1.0.0") });
    const head = reader({ "package-lock.json": lockText(150_000, "1.0.1") });
    const { result, stallMs } = await longestStall(() => changedPackages(["package-lock.json"], base, head));
    expect(result.changes).toHaveLength(10_000);
    expect(result.changes[9_999]).toMatchObject({ name: "p9999", old: { version: "1.0.0" }, new: { version: "1.0.1" } });
    expect(result.problems).toEqual(["package-lock.json changes 140,000 more npm packages than the 10,000 a review lists; they are not reviewed"]);
    expect(stallMs).toBeLessThan(2000); // one 9 MB JSON.parse at a time (~0.1 s), never the whole comparison
  });

  it("300 paths pointing at one 10 MB blob: a few are read, the others named in one problem", async () => {
    const repo = await makeRepo({ "README.md": "# app\n" });
    const base = gitSync(repo, "rev-parse", "HEAD").trim();
    // One blob, 300 paths: git stores it once, a naive reader parses it 300 times.
    const big = JSON.stringify({ name: "big", description: "x".repeat(10 * MB), dependencies: { "left-pad": "^1.0.0" } });
    await writeFile(path.join(repo, ".git", "big.json"), big);
    const blob = gitSync(repo, "hash-object", "-w", "--", ".git/big.json").trim();
    const paths = Array.from({ length: 300 }, (_, i) => `pkg${String(i).padStart(3, "0")}/package.json`);
    execFileSync("git", ["update-index", "--index-info"], { cwd: repo, input: paths.map((file) => `100644 ${blob}\t${file}\n`).join("") });
    const tree = gitSync(repo, "write-tree").trim();
    const head = gitSync(repo, "commit-tree", tree, "-p", base, "-m", "300 manifests").trim();
    const diff: DiffFile[] = paths.map((file) => ({ path: file, status: "added", binary: false, additions: 1, deletions: 0, hunks: [] }));

    const started = performance.now();
    const { result, stallMs } = await longestStall(() => detectDependencies(repo, base, head, { scope: diff, full: diff }, new AbortController().signal));
    expect(performance.now() - started).toBeLessThan(15_000); // 300 full reads and parses take minutes
    expect(result!.changes.map((c) => [c.file, c.name])).toEqual(paths.slice(0, 6).map((file) => [file, "left-pad"]));
    expect(result!.problems).toEqual([`294 dependency files were not read (\`${paths[6]}\`, \`${paths[7]}\`, \`${paths[8]}\` and 291 more): a review reads at most 100 of them and 64 MB in all; their packages are not reviewed`]);
    expect(stallMs).toBeLessThan(1000);
  }, 60_000);

  it("the job's abort ends the detection between two files", async () => {
    const controller = new AbortController();
    const slow: TreeReader = {
      read: async (path) => {
        if (path === "b/package.json") controller.abort(new Error("job cancelled"));
        return '{"dependencies":{"a":"1"}}';
      },
    };
    await expect(changedPackages(["a/package.json", "b/package.json", "c/package.json"], reader({}), slow, { signal: controller.signal })).rejects.toThrow("job cancelled");
  });
});

describe("patterns over a package's text are linear", () => {
  const contents = (code: Record<string, string>): PackageContents => ({ packageJson: {}, files: Object.keys(code), code: new Map(Object.entries(code)), unreadCode: [], bindingGyp: false, nativeFiles: [] });

  const twoMB = (unit: string) => unit.repeat(Math.floor((2 * MB) / unit.length));

  it("eight 2 MB files of hex escapes, each run one short of a blob, are compared in well under 2 s", () => {
    const code = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`f${i}.js`, twoMB(`${"\\x41".repeat(499)};\n`)]));
    const started = performance.now();
    const facts = compareVersions({ name: "evil", old: contents({}), new: contents(code), now: 0 });
    expect(performance.now() - started).toBeLessThan(2000); // ~0.1 s; a pattern starting over at every `\x` takes seconds
    expect(facts).toEqual([]);
  });

  it("files built to make the other marks and the capability patterns backtrack are compared in well under 2 s", () => {
    const code = {
      "hex-quoted.js": twoMB(`'${"a".repeat(1999)};`),
      "base64-quoted.js": twoMB(`"${"A".repeat(1999)};`),
      "quotes.js": twoMB("'"),
      "newlines.js": twoMB("\n"),
      "require.js": twoMB(`require(${" ".repeat(1000)}`),
      "import.js": twoMB(`import${" ".repeat(1000)}`),
      "new.js": twoMB(`new${" ".repeat(1000)}`),
      "fetch.js": twoMB(`fetch${" ".repeat(1000)}`),
    };
    const started = performance.now();
    const facts = compareVersions({ name: "evil", old: contents({}), new: contents(code), now: 0 });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(facts.map((f) => f.text)).toEqual(["has marks of obfuscated code: a line over 10,000 characters in `base64-quoted.js` (and 6 more files)"]);
  });

  it("still finds a real blob and real module use", () => {
    expect(obfuscationMarks("a.js", `x = "${"\\x41".repeat(500)}"`)).toEqual(["a long hex string"]);
    expect(obfuscationMarks("a.js", `x = "${"\\x41".repeat(499)}"`)).toEqual([]);
    expect([...capabilitiesOf(`${" ".repeat(100_000)}require(  "child_process" )`)]).toEqual(["child-process"]);
  });

  it("a maintainer string of 100 000 spaces is read at once, not in seconds", () => {
    const started = performance.now();
    const meta = versionMeta({ versions: { "1.0.0": { maintainers: [`${" ".repeat(100_000)}x`, "Ann <ann@example.test>", "Bo   <bo@example.test> (https://bo.example)"] } } }, "1.0.0");
    expect(performance.now() - started).toBeLessThan(1000);
    expect(meta!.maintainers).toEqual([`${" ".repeat(100_000)}x`, "Ann", "Bo"]);
  });
});

describe("the app while a review reads a hostile tarball", () => {
  useNock();
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  /** A lockfile v3 pinning `name` at the published version. */
  const lockfile = (name: string, version: string, integrity: string) =>
    `${JSON.stringify({ name: "app", version: "1.0.0", lockfileVersion: 3, requires: true, packages: { "": { name: "app", version: "1.0.0" }, [`node_modules/${name}`]: { version, integrity } } }, null, 2)}\n`;

  it("answers /healthz within a second all along, and the review names the budget spent", async () => {
    const registry: NpmRegistryStandIn = await startNpmRegistry();
    closers.push(() => registry.close());
    const old = registry.publish({ name: "hostile", version: "1.0.0", files: { "index.js": "module.exports = 1;\n" } });
    // Thousands of PAX paths of 60 KB each: every record under the record cap, the paths far over their budget.
    const fresh = registry.publish({ name: "hostile", version: "1.0.1", tarball: longPathTarball(3000, 60 * 1024) });
    expect(fresh.tarball.length).toBeLessThan(MB);
    const served = await gitServer({ "README.md": "# app\n", "package-lock.json": lockfile("hostile", "1.0.0", old.integrity) });
    closers.push(() => served.git.close());
    gitSync(served.dir, "branch", "feature");
    const head = await push({ remoteDir: served.dir }, { "package-lock.json": lockfile("hostile", "1.0.1", fresh.integrity) }, "bump hostile");
    const fake: FakeServer = await startFakeAnthropic([]);
    closers.push(() => fake.close());
    const port = await freePort();
    const env = { ...stackEnv(await tempDir("crewbot-data-"), fake.url), PORT: String(port), HOST: "127.0.0.1", CREWBOT_NPM_REGISTRY: registry.url };
    const started: Started = await start({ env, Octokit: TestOctokit, runner: { pollMs: 50, leaseMs: 4000, heartbeatMs: 500 } });
    closers.push(() => started.stop());
    const t: Traffic = { reviews: [], checks: [], rejected: [] };
    mockReviewJob({ remoteDir: served.dir }, t, { checkId: 931, review: true });

    // The first answer waits for the sandbox probe (once per process): asked before the review starts.
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    const body = JSON.stringify(pullRequestEvent("opened", { headSha: head, cloneUrl: served.cloneUrl }));
    const res = await fetch(`http://127.0.0.1:${port}/api/github/webhooks`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "x-github-event": "pull_request", "x-github-delivery": "deps-healthz", "x-hub-signature-256": signWebhook(body, WEBHOOK_SECRET) },
    });
    expect(res.status).toBe(200);
    const [job] = await started.crewbot!.queue.listRecent();
    // One request after another until the job ends: the time each took, and the time since the last answer.
    const waits: number[] = [];
    let answered = performance.now();
    while (!["succeeded", "failed", "cancelled"].includes((await started.crewbot!.queue.get(job!.id))!.state)) {
      const asked = performance.now();
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(200);
      await health.text();
      const now = performance.now();
      waits.push(now - asked, now - answered);
      answered = now;
    }
    await started.crewbot!.background.idle();

    expect(registry.tarballRequests().map((r) => r.url)).toContain(fresh.tarballPath);
    expect(waits.length).toBeGreaterThan(10);
    expect(Math.max(...waits)).toBeLessThan(1000);
    expect(t.reviews[0].body).toContain("its tarball's paths and header records take over 8 MB");
  }, 60_000);
});
