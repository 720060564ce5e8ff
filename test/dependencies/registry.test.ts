/**
 * The registry client's rules: settings from the environment, URLs only from the registry's base,
 * redirects within its origin, integrity checks; and the tarball cache's.
 */
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { matchesIntegrity, sha512Hex } from "../../src/dependencies/integrity.js";
import { builtTarballUrl, packageDocumentUrl, registryClient, registrySettings, tarballUrl } from "../../src/dependencies/registry.js";
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
  it("builds document and tarball URLs from the registry's base", () => {
    expect(packageDocumentUrl(base, "@scope/name")).toBe("https://npm.internal.example/api/npm/@scope%2fname");
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

describe("integrity", () => {
  const bytes = Buffer.from("tarball bytes");
  it.each([
    [sha512Integrity(bytes), true],
    [sha1Integrity(bytes), true],
    [`${sha1Integrity(Buffer.from("other"))} ${sha512Integrity(bytes)}`, true], // only the strongest counts
    [`${sha1Integrity(bytes)} ${sha512Integrity(Buffer.from("other"))}`, false],
    [`${sha512Integrity(Buffer.from("other"))} ${sha512Integrity(bytes)}`, true], // any of the strongest
    ["md5-abc", false],
    ["", false],
  ])("%s → %s", (integrity, expected) => expect(matchesIntegrity(bytes, integrity)).toBe(expected));
});

describe("verifiedTarball (the cache)", () => {
  let dir: string;
  afterEach(() => rm(dir, { recursive: true, force: true }));
  const bytes = Buffer.from("a verified tarball");

  it("keeps verified bytes under their sha512, re-verifies on read, never keeps a mismatch", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "crewbot-cache-"));
    let fetches = 0;
    const request = (integrity: string, body = bytes) => ({ integrity, fetch: async () => (fetches++, body) });
    expect(await verifiedTarball(dir, request(sha512Integrity(bytes)))).toEqual({ ok: true, bytes, cached: false });
    expect(await readdir(dir)).toEqual([`${sha512Hex(sha512Integrity(bytes))}.tgz`]);
    expect(await verifiedTarball(dir, request(sha512Integrity(bytes)))).toEqual({ ok: true, bytes, cached: true });
    expect(fetches).toBe(1);
    await writeFile(path.join(dir, `${sha512Hex(sha512Integrity(bytes))}.tgz`), "tampered");
    expect(await verifiedTarball(dir, request(sha512Integrity(bytes)))).toEqual({ ok: true, bytes, cached: false });
    expect(fetches).toBe(2);
    expect(await verifiedTarball(dir, request(sha512Integrity(bytes), Buffer.from("evil")))).toEqual({ ok: true, bytes, cached: true });
    expect(await verifiedTarball(dir, request(sha512Integrity(Buffer.from("x")), Buffer.from("evil")))).toEqual({ ok: false, mismatch: true });
    expect(await readdir(dir)).toHaveLength(1);
  });

  it("a sha1-only lockfile integrity finds the cache through the document's sha512", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "crewbot-cache-"));
    await verifiedTarball(dir, { integrity: sha512Integrity(bytes), fetch: async () => bytes });
    const hit = await verifiedTarball(dir, { integrity: sha1Integrity(bytes), alsoKnownAs: sha512Integrity(bytes), fetch: async () => Buffer.from("never") });
    expect(hit).toEqual({ ok: true, bytes, cached: true });
  });
});
