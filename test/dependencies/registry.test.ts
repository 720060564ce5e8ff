/**
 * The registry client's rules: settings from the environment, URLs only from the registry's base,
 * redirects within its origin, integrity checks; and the tarball cache's.
 */
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { ByteBudget } from "../../src/dependencies/byte-budget.js";
import { comparedWith, distHashes, hexOf, parseHashes, soleHash } from "../../src/dependencies/integrity.js";
import { ABBREVIATED_ACCEPT, builtTarballUrl, packageDocumentUrl, registryClient, registrySettings, tarballUrl, versionManifestUrl } from "../../src/dependencies/registry.js";
import { verifiedTarball } from "../../src/dependencies/tarball-cache.js";
import { startNpmRegistry, type NpmRegistryStandIn } from "../helpers/npm-registry.js";
import { sha1Integrity, sha512Integrity } from "../helpers/npm-tarball.js";

describe("registrySettings", () => {
  it.each([
    [{}, { url: "https://registry.npmjs.org/" }],
    [{ CREWBOT_NPM_REGISTRY: "  " }, { url: "https://registry.npmjs.org/" }],
    [{ CREWBOT_NPM_REGISTRY: "https://npm.internal.example/api/npm/remote", CREWBOT_NPM_TOKEN: "t0k" }, { url: "https://npm.internal.example/api/npm/remote/", token: "t0k" }],
    [{ CREWBOT_NPM_REGISTRY: "http://127.0.0.1:4873/?x=1#y" }, { url: "http://127.0.0.1:4873/" }],
  ])("%j → %j", (env, expected) => expect(registrySettings(env)).toEqual(expected));

  it.each([
    ["not a url", "CREWBOT_NPM_REGISTRY is not a URL"],
    ["file:///etc/npm", "CREWBOT_NPM_REGISTRY must be an http(s) URL, not file:"],
    ["https://user:pw@npm.example/", "CREWBOT_NPM_REGISTRY must not carry credentials"],
  ])("refuses %s, naming the variable", (value, message) => expect(() => registrySettings({ CREWBOT_NPM_REGISTRY: value })).toThrow(message));
});

describe("registry URLs", () => {
  const base = "https://npm.internal.example/api/npm/";
  it("builds document, manifest and tarball URLs from the registry's base", () => {
    expect(packageDocumentUrl(base, "@scope/name")).toBe("https://npm.internal.example/api/npm/@scope%2fname");
    expect(versionManifestUrl(base, "@scope/name", "1.2.3")).toBe("https://npm.internal.example/api/npm/@scope%2fname/1.2.3");
    expect(() => versionManifestUrl(base, "a", "1.0.0/../../x")).toThrow("is not a version");
    expect(builtTarballUrl(base, "@scope/name", "1.2.3-rc.1")).toBe("https://npm.internal.example/api/npm/@scope/name/-/name-1.2.3-rc.1.tgz");
  });

  it("uses a document's dist.tarball only on the registry's origin", () => {
    expect(tarballUrl(base, "a", "1.0.0", "https://npm.internal.example/files/a-1.0.0.tgz")).toBe("https://npm.internal.example/files/a-1.0.0.tgz");
    expect(tarballUrl(base, "a", "1.0.0", "https://evil.example/a-1.0.0.tgz")).toBe(`${base}a/-/a-1.0.0.tgz`);
    expect(tarballUrl(base, "a", "1.0.0", "http://npm.internal.example/a.tgz")).toBe(`${base}a/-/a-1.0.0.tgz`);
    expect(tarballUrl(base, "a", "1.0.0", 42)).toBe(`${base}a/-/a-1.0.0.tgz`);
  });

  it.each(["../../admin", "a/b/c", "@s/../x", "a?b", "", "a b"])("refuses the name %j (it comes from the repository)", (name) => {
    expect(() => packageDocumentUrl(base, name)).toThrow("is not a valid npm package name");
  });

  it("refuses a version that is not one", () => expect(() => builtTarballUrl(base, "a", "1.0.0/../../x")).toThrow("is not a version"));
});

describe("registryClient", () => {
  let registry: NpmRegistryStandIn;
  afterEach(() => registry.close());

  it("follows a redirect within the registry's origin, with the token", async () => {
    registry = await startNpmRegistry();
    const published = registry.publish({ name: "a", version: "1.0.0" });
    registry.behave("/mirror/a.tgz", { redirect: published.tarballPath });
    const client = registryClient({ settings: { url: registry.url, token: "tok" } });
    expect(await client.tarball(`${registry.url}mirror/a.tgz`)).toEqual(published.tarball);
    expect(registry.requests.map((r) => [r.url, r.authorization])).toEqual([["/mirror/a.tgz", "Bearer tok"], [published.tarballPath, "Bearer tok"]]);
  });

  it("asks for the abbreviated document as npm does, the full one and a version's manifest as JSON", async () => {
    registry = await startNpmRegistry();
    registry.publish({ name: "@s/a", version: "1.0.0", publisher: "alice" });
    const client = registryClient({ settings: { url: registry.url } });
    expect(await client.abbreviated("@s/a")).toMatchObject({ name: "@s/a", versions: { "1.0.0": { name: "@s/a", version: "1.0.0" } } });
    expect(await client.document("@s/a")).toMatchObject({ time: { "1.0.0": "2020-01-01T00:00:00.000Z" } });
    expect(await client.manifest("@s/a", "1.0.0")).toMatchObject({ _npmUser: { name: "alice" } });
    await expect(client.manifest("@s/a", "9.9.9")).rejects.toMatchObject({ message: "the registry answered 404 for the manifest of `@s/a@9.9.9`", status: 404 });
    expect(registry.requests.map((r) => [r.url, r.accept, r.served])).toEqual([
      ["/@s%2fa", ABBREVIATED_ACCEPT, "abbreviated"],
      ["/@s%2fa", "application/json", "full"],
      ["/@s%2fa/1.0.0", "application/json", "manifest"],
      ["/@s%2fa/9.9.9", "application/json", undefined],
    ]);
  });

  it("charges every body byte to the budget and sends nothing once it is spent", async () => {
    registry = await startNpmRegistry();
    const published = registry.publish({ name: "a", version: "1.0.0" });
    const budget = new ByteBudget(published.tarball.length + 10);
    const client = registryClient({ settings: { url: registry.url }, budget });
    expect(await client.tarball(`${registry.url}${published.tarballPath.slice(1)}`)).toEqual(published.tarball);
    expect(budget.remaining).toBe(10);
    await expect(client.abbreviated("a")).rejects.toThrow("the review's dependency budget (");
    await expect(client.abbreviated("a")).rejects.toThrow("is spent");
    expect(registry.requests).toHaveLength(2);
  });

  it("refuses a Content-Length over what is left of the budget before reading the body", async () => {
    registry = await startNpmRegistry();
    registry.behave("/big.tgz", { bytes: 5 * 1024 * 1024 });
    const budget = new ByteBudget(1024 * 1024);
    const client = registryClient({ settings: { url: registry.url }, budget });
    await expect(client.tarball(`${registry.url}big.tgz`)).rejects.toThrow("the review's dependency budget (1 MB) is spent");
    expect(budget.remaining).toBe(0);
  });

  it("a caller's abort is passed on, not turned into a reason", async () => {
    registry = await startNpmRegistry();
    registry.behave("/slow", { delayMs: 2000 });
    const controller = new AbortController();
    const client = registryClient({ settings: { url: registry.url }, signal: controller.signal });
    const pending = client.document("slow");
    controller.abort(new Error("job cancelled"));
    await expect(pending).rejects.toThrow("job cancelled");
  });
});

describe("soleHash, comparedWith (what a lockfile pins, against the registry)", () => {
  const a = Buffer.from("tarball a");
  const b = Buffer.from("tarball b");
  const hash = (integrity: string) => parseHashes(integrity)[0]!;
  it.each([
    [sha512Integrity(a), { hash: hash(sha512Integrity(a)) }],
    [`${sha1Integrity(b)} ${sha512Integrity(a)}`, { hash: hash(sha512Integrity(a)) }],
    [`${sha512Integrity(a)} ${sha512Integrity(a)}`, { hash: hash(sha512Integrity(a)) }], // the same digest twice pins one tarball
    [`${sha512Integrity(a)} ${sha512Integrity(b)}`, { ambiguous: { algorithm: "sha512", count: 2 } }],
    [`${sha1Integrity(a)} ${sha1Integrity(b)} ${sha512Integrity(a)}`, { hash: hash(sha512Integrity(a)) }], // only the strongest counts
    ["md5-abc", { none: true }],
    ["", { none: true }],
  ])("%s → %j", (integrity, expected) => expect(soleHash(parseHashes(integrity))).toEqual(expected));

  it("compares a lockfile's hash with the registry's of the same algorithm, including the shasum", () => {
    const registry = distHashes({ integrity: sha512Integrity(a), shasum: createHash("sha1").update(a).digest("hex") });
    expect(comparedWith(hash(sha512Integrity(a)), registry)).toBe("agrees");
    expect(comparedWith(hash(sha512Integrity(b)), registry)).toBe("differs");
    expect(comparedWith(hash(sha1Integrity(a)), registry)).toBe("agrees");
    expect(comparedWith(hash(sha1Integrity(b)), registry)).toBe("differs");
    expect(comparedWith(hash(`sha256-${createHash("sha256").update(a).digest("base64")}`), registry)).toBe("unknown");
  });
});

describe("verifiedTarball (the cache)", () => {
  let dir: string;
  afterEach(() => rm(dir, { recursive: true, force: true }));
  const bytes = Buffer.from("a verified tarball");
  const keyOf = (body: Buffer) => parseHashes(sha512Integrity(body))[0]!;

  it("keeps verified bytes under the registry's sha512, re-verifies on read, never keeps a mismatch", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "crewbot-cache-"));
    let fetches = 0;
    const request = (hash = keyOf(bytes), body = bytes) => ({ hash, fetch: async () => (fetches++, body) });
    expect(await verifiedTarball(dir, request())).toEqual({ ok: true, bytes, cached: false });
    expect(await readdir(dir)).toEqual([`${hexOf(keyOf(bytes))}.tgz`]);
    expect(await verifiedTarball(dir, request())).toEqual({ ok: true, bytes, cached: true });
    expect(fetches).toBe(1);
    await writeFile(path.join(dir, `${hexOf(keyOf(bytes))}.tgz`), "tampered");
    expect(await verifiedTarball(dir, request())).toEqual({ ok: true, bytes, cached: false });
    expect(fetches).toBe(2);
    expect(await verifiedTarball(dir, request(keyOf(bytes), Buffer.from("evil")))).toEqual({ ok: true, bytes, cached: true });
    expect(await verifiedTarball(dir, request(keyOf(Buffer.from("x")), Buffer.from("evil")))).toEqual({ ok: false, mismatch: true });
    expect(await readdir(dir)).toHaveLength(1);
  });

  it("a hash the registry gives only as sha1 is verified but not cached", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "crewbot-cache-"));
    const sha1 = parseHashes(sha1Integrity(bytes))[0]!;
    expect(await verifiedTarball(dir, { hash: sha1, fetch: async () => bytes })).toEqual({ ok: true, bytes, cached: false });
    expect(await verifiedTarball(dir, { hash: sha1, fetch: async () => Buffer.from("evil") })).toEqual({ ok: false, mismatch: true });
    expect(await readdir(dir)).toEqual([]);
  });

  it("asks before reading a cached file, with its size, and reads nothing when refused", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "crewbot-cache-"));
    await verifiedTarball(dir, { hash: keyOf(bytes), fetch: async () => bytes });
    const sizes: number[] = [];
    const refused = verifiedTarball(dir, { hash: keyOf(bytes), fetch: async () => bytes, admit: (size) => (sizes.push(size), (() => { throw new Error("spent"); })()) });
    await expect(refused).rejects.toThrow("spent");
    expect(sizes).toEqual([bytes.length]);
  });
});
