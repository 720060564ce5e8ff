/**
 * Adversarial suite, the dependency pass: a pull request's lockfile trying to make crewbot inspect
 * something other than what npm would install, or to make one review read (and hold) far more than
 * it needs. Each scenario runs inspectDependencies against the registry stand-in on loopback.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inspectDependencies, type InspectOptions } from "../../src/dependencies/inspect.js";
import type { PackageChange } from "../../src/dependencies/types.js";
import { startNpmRegistry, type NpmRegistryStandIn, type PublishOptions, type PublishedVersion } from "../helpers/npm-registry.js";
import { packageTarball, sha1Integrity, sha512Integrity } from "../helpers/npm-tarball.js";

const NOW = Date.parse("2026-03-01T12:00:00.000Z");
const INDEX = "module.exports = function add(a, b) { return a + b; };\n";

let registry: NpmRegistryStandIn;
let cacheDir: string;
let warnings: string[];

beforeEach(async () => {
  registry = await startNpmRegistry();
  cacheDir = await mkdtemp(path.join(tmpdir(), "crewbot-npm-abuse-"));
  warnings = [];
});
afterEach(async () => {
  await registry.close();
  await rm(cacheDir, { recursive: true, force: true });
});

const options = (extra: Partial<InspectOptions> = {}): InspectOptions => ({
  registry: { url: registry.url },
  cacheDir,
  maxPackages: 50,
  log: { warn: (message) => warnings.push(message) },
  now: () => NOW,
  ...extra,
});

const publish = (name: string, version: string, extra: Partial<PublishOptions> = {}) => registry.publish({ name, version, files: { "index.js": INDEX }, publisher: "alice", maintainers: ["alice"], ...extra });

function change(name: string, old: { version: string; integrity: string } | undefined, now: { version: string; integrity: string }, location = `node_modules/${name}`): PackageChange {
  return { name, location, ...(old ? { old } : {}), new: now, direct: false, file: "package-lock.json", line: 7, source: "lockfile" };
}

const pinned = (version: string, p: PublishedVersion, integrity = p.integrity) => ({ version, integrity });
const cacheFile = (p: PublishedVersion) => `${Buffer.from(p.integrity.slice("sha512-".length), "base64").toString("hex")}.tgz`;

describe("integrity as npm means it", () => {
  it("a lockfile giving evil@2.0.0 a benign cached tarball's hash and its own is a critical finding, not a clean bump", async () => {
    const benign = publish("benign", "1.0.0");
    await inspectDependencies([change("benign", undefined, pinned("1.0.0", benign))], options()); // now cached
    expect(await readdir(cacheDir)).toContain(cacheFile(benign));
    const evilOld = publish("evil", "1.0.0");
    const evil = publish("evil", "2.0.0", { manifest: { scripts: { postinstall: "node steal.js" } } });
    registry.requests.length = 0;
    // npm (ssri) accepts a tarball that matches any one sha512 here: `resolved` may serve evil.
    const forged = change("evil", pinned("1.0.0", evilOld), { version: "2.0.0", integrity: `${benign.integrity} ${evil.integrity}` });

    const review = await inspectDependencies([forged], options());

    expect(review.packages[0]).toEqual({
      change: forged,
      facts: [
        {
          kind: "integrity-ambiguous",
          severity: "critical",
          text: "the lockfile gives `evil@2.0.0` 2 different sha512 hashes; npm installs a tarball that matches any one of them, so what it installs cannot be known: it is not compared",
        },
      ],
    });
    expect(registry.tarballRequests()).toEqual([]);
  });

  it("a lockfile integrity that is not the registry's is critical before any tarball is fetched", async () => {
    const other = publish("other", "1.0.0");
    const old = publish("swapped", "1.0.0");
    publish("swapped", "1.1.0", { manifest: { scripts: { postinstall: "node steal.js" } } });
    const forged = change("swapped", pinned("1.0.0", old), pinned("1.1.0", other));

    const review = await inspectDependencies([forged], options());

    expect(review.packages[0]!.facts).toEqual([
      {
        kind: "integrity-mismatch",
        severity: "critical",
        text: "the lockfile's integrity (sha512) for `swapped@1.1.0` is not the registry's: the lockfile pins a tarball the registry does not serve under that name and version, so it is not compared",
      },
    ]);
    expect(registry.tarballRequests()).toEqual([]);
  });

  it("a wrong hash in a pull request's lockfile never evicts a correct cache file", async () => {
    const old = publish("kept", "1.0.0");
    const now = publish("kept", "1.1.0");
    await inspectDependencies([change("kept", pinned("1.0.0", old), pinned("1.1.0", now))], options());
    const before = (await readdir(cacheDir)).sort();
    expect(before).toEqual([cacheFile(old), cacheFile(now)].sort());

    const wrong = sha512Integrity(Buffer.from("not the tarball"));
    await inspectDependencies([change("kept", pinned("1.0.0", old), pinned("1.1.0", now, wrong))], options());

    expect((await readdir(cacheDir)).sort()).toEqual(before);
    expect(await readFile(path.join(cacheDir, cacheFile(now)))).toEqual(now.tarball);
  });

  it("a tarball whose package.json names another package is critical and not compared", async () => {
    const old = publish("typo-pkg", "1.0.0");
    const tarball = packageTarball({ "package.json": JSON.stringify({ name: "lodash", version: "4.17.21" }), "index.js": INDEX });
    const now = publish("typo-pkg", "1.1.0", { tarball });

    const review = await inspectDependencies([change("typo-pkg", pinned("1.0.0", old), pinned("1.1.0", now))], options());

    expect(review.packages[0]!.facts).toEqual([
      {
        kind: "manifest-mismatch",
        severity: "critical",
        text: "its tarball's package.json names `lodash@4.17.21`, not `typo-pkg@1.1.0`: it is not the package the registry lists under that name and version, so it is not compared",
        files: ["package.json"],
      },
    ]);
  });

  it("a tarball whose package.json gives another version is critical too", async () => {
    const tarball = packageTarball({ "package.json": JSON.stringify({ name: "drift", version: "9.9.9" }) });
    const now = publish("drift", "1.0.0", { tarball });
    const review = await inspectDependencies([change("drift", undefined, pinned("1.0.0", now))], options());
    expect(review.packages[0]!.facts.map((f) => [f.kind, f.severity])).toEqual([["manifest-mismatch", "critical"]]);
  });

  it("bytes that do not match the registry's own integrity are critical, and not cached", async () => {
    const now = publish("tampered", "1.0.0", { distIntegrity: sha512Integrity(Buffer.from("what was published")) });
    const review = await inspectDependencies([change("tampered", undefined, { version: "1.0.0", integrity: sha512Integrity(Buffer.from("what was published")) })], options());
    expect(review.packages[0]!.facts).toEqual([
      {
        kind: "integrity-mismatch",
        severity: "critical",
        text: "the registry's tarball of `tampered@1.0.0` does not match the registry's own integrity (sha512): it is not what was published, so it is not compared",
      },
    ]);
    expect(now.tarball.length).toBeGreaterThan(0);
    expect(await readdir(cacheDir)).toEqual([]);
  });

});

describe("one reading per name@version, dropped once compared", () => {
  it("junk hashes beside the real one do not make one tarball be read (and held) once per lockfile entry", async () => {
    const old = publish("junk", "1.0.0", { files: { "index.js": INDEX.repeat(200) } });
    const now = publish("junk", "1.1.0", { files: { "index.js": INDEX.repeat(201) } });
    // Each entry's string is different, its strongest hash the same: one tarball, twenty-four lockfile entries.
    const changes = Array.from({ length: 24 }, (_, i) =>
      change("junk", { version: "1.0.0", integrity: `${sha1Integrity(randomBytes(8))} ${old.integrity}` }, { version: "1.1.0", integrity: `${sha1Integrity(randomBytes(8))} ${now.integrity}` }, `node_modules/x${i}/node_modules/junk`),
    );
    const parsed: string[] = [];
    let peak = 0;

    const review = await inspectDependencies(changes, options({ meter: { parsed: (key) => parsed.push(key), held: (bytes) => (peak = Math.max(peak, bytes)) } }));

    expect(review.packages.map((p) => [p.facts, p.notInspected])).toEqual(changes.map(() => [[], undefined]));
    expect(registry.tarballRequests().map((r) => r.url).sort()).toEqual([old.tarballPath, now.tarballPath].sort());
    expect(parsed.sort()).toEqual(["junk@1.0.0", "junk@1.1.0"]);
    // Two readings of ~10 KB of code each, never twenty-four of them.
    expect(peak).toBeGreaterThan(2 * INDEX.length * 200);
    expect(peak).toBeLessThan(3 * INDEX.length * 201);
  });

  it("a package's readings are dropped once its changes are compared, before the next package is read", async () => {
    const names = ["held-a", "held-b", "held-c"];
    const changes = names.map((name) => change(name, pinned("1.0.0", publish(name, "1.0.0", { files: { "index.js": INDEX.repeat(100) } })), pinned("1.1.0", publish(name, "1.1.0", { files: { "index.js": INDEX.repeat(101) } }))));
    const held: number[] = [];

    await inspectDependencies(changes, options({ concurrency: 1, meter: { held: (bytes) => held.push(bytes) } }));

    const pair = 2 * INDEX.length * 100;
    expect(Math.max(...held)).toBeGreaterThan(pair);
    expect(Math.max(...held)).toBeLessThan(2 * pair); // never two packages' readings at once
    expect(held.at(-1)).toBe(0);
    expect(held.filter((bytes) => bytes === 0)).toHaveLength(3);
  });

  it("twenty-four two-hash entries are twenty-four critical findings and no tarball read", async () => {
    const old = publish("junk2", "1.0.0");
    const now = publish("junk2", "1.1.0");
    const changes = Array.from({ length: 24 }, (_, i) =>
      change("junk2", pinned("1.0.0", old), { version: "1.1.0", integrity: `${now.integrity} ${sha512Integrity(randomBytes(8))}` }, `node_modules/x${i}/node_modules/junk2`),
    );
    const review = await inspectDependencies(changes, options());
    expect(review.packages.map((p) => p.facts.map((f) => f.kind))).toEqual(changes.map(() => ["integrity-ambiguous"]));
    expect(registry.tarballRequests()).toEqual([]);
  });
});

describe("one byte budget for the review's dependency pass", () => {
  it("a package over the budget is named as not inspected, never silently skipped", async () => {
    const small = [publish("small", "1.0.0"), publish("small", "1.1.0")];
    const noise = randomBytes(96 * 1024); // incompressible: the tarball stays ~96 KB
    const big = [publish("big", "1.0.0"), publish("big", "1.1.0", { files: { "index.js": INDEX, "blob.bin": noise } })];
    const changes = [change("small", pinned("1.0.0", small[0]!), pinned("1.1.0", small[1]!)), change("big", pinned("1.0.0", big[0]!), pinned("1.1.0", big[1]!))];

    const review = await inspectDependencies(changes, options({ concurrency: 1, maxReviewBytes: 64 * 1024 }));

    expect(review.packages.map((p) => [p.change.name, p.notInspected])).toEqual([
      ["small", undefined],
      ["big", "the review's dependency budget (64 KB) is spent"],
    ]);
    expect(warnings).toEqual(["dependency review: big@1.1.0: the review's dependency budget (64 KB) is spent"]);
  });

  it("once spent, no further request is made", async () => {
    const names = ["p1", "p2", "p3"];
    const changes = names.map((name) => change(name, undefined, pinned("1.0.0", publish(name, "1.0.0"))));
    const review = await inspectDependencies(changes, options({ concurrency: 1, maxReviewBytes: 1 }));
    expect(review.packages.map((p) => p.notInspected)).toEqual(names.map(() => "the review's dependency budget (1 B) is spent"));
    expect(registry.requests.map((r) => r.url)).toEqual(["/p1"]);
  });
});

describe("npm's abbreviated document", () => {
  it("resolves versions and tarballs from the abbreviated document; the full one is not fetched for an old release", async () => {
    const old = publish("slim", "1.0.0");
    const now = publish("slim", "1.1.0", { publisher: "mallory" });

    const review = await inspectDependencies([change("slim", pinned("1.0.0", old), pinned("1.1.0", now))], options());

    expect(review.packages[0]!.facts).toEqual([{ kind: "publisher", severity: "warning", text: "is published by `mallory`; the old version was published by `alice`" }]);
    const documents = registry.requests.filter((r) => r.url === "/slim");
    expect(documents.map((r) => r.accept)).toEqual(["application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*"]);
    expect(documents.map((r) => r.served)).toEqual(["abbreviated"]);
    expect(registry.fullDocumentRequests()).toEqual([]);
  });

  it("fetches the full document only when the package changed within the fresh-release window", async () => {
    publish("hot", "1.0.0");
    const now = publish("hot", "1.0.1", { publishedAt: "2026-03-01T02:00:00.000Z" });
    const review = await inspectDependencies([change("hot", undefined, pinned("1.0.1", now))], options());
    expect(review.packages[0]!.facts.map((f) => f.kind)).toEqual(["fresh-release"]);
    expect(registry.fullDocumentRequests().map((r) => [r.url, r.accept])).toEqual([["/hot", "application/json"]]);
  });
});

describe("the job's abort signal", () => {
  it("stops the pass: no new request and no new parse after it", async () => {
    const names = ["a1", "a2", "a3", "a4"];
    const changes = names.map((name) => change(name, undefined, pinned("1.0.0", publish(name, "1.0.0"))));
    const controller = new AbortController();
    const parsed: string[] = [];
    // The first tarball's bytes arrive, then the job is cancelled.
    const fetchThenAbort: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (String(input).includes("/-/")) {
        const body = await response.arrayBuffer();
        controller.abort(new Error("job cancelled"));
        return new Response(body, { status: response.status, headers: response.headers });
      }
      return response;
    };

    await expect(inspectDependencies(changes, options({ concurrency: 1, signal: controller.signal, fetch: fetchThenAbort, meter: { parsed: (key) => parsed.push(key) } }))).rejects.toThrow("job cancelled");
    const seen = registry.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect(registry.requests.map((r) => r.url)).toEqual(["/a1", "/a1/-/a1-1.0.0.tgz"]);
    expect(registry.requests).toHaveLength(seen);
    expect(parsed).toEqual([]);
    expect(await readdir(cacheDir)).toEqual([]);
  });

  it("ends a tarball's reading: nothing of it is held after the abort", async () => {
    const changes = [change("b1", undefined, pinned("1.0.0", publish("b1", "1.0.0")))];
    const controller = new AbortController();
    const held: number[] = [];
    const meter = { parsed: () => controller.abort(new Error("job cancelled")), held: (bytes: number) => held.push(bytes) };

    await expect(inspectDependencies(changes, options({ signal: controller.signal, meter }))).rejects.toThrow("job cancelled");
    expect(held.filter((bytes) => bytes > 0)).toEqual([]);
  });
});
