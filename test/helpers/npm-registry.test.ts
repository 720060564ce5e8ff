/**
 * The registry stand-in and its tarball writer do what the dependency tests rely on: the bad
 * entries really are in the bytes (node-tar lists them unsanitised), documents carry the real
 * integrity, and behaviours and the request record work.
 */
import { createHash } from "node:crypto";
import { Parser, type ReadEntry } from "tar";
import { afterEach, describe, expect, it } from "vitest";
import { startNpmRegistry, type NpmRegistryStandIn } from "./npm-registry.js";
import { packageTarball, sha512Integrity, tarOf } from "./npm-tarball.js";

async function list(bytes: Buffer): Promise<{ path: string; type: string; linkpath?: string; body: string }[]> {
  const seen: { path: string; type: string; linkpath?: string; body: string }[] = [];
  const parser = new Parser({
    onReadEntry: (entry: ReadEntry) => {
      const chunks: Buffer[] = [];
      entry.on("data", (c: Buffer) => chunks.push(c));
      entry.on("end", () => seen.push({ path: entry.path, type: entry.type, ...(entry.linkpath ? { linkpath: entry.linkpath } : {}), body: Buffer.concat(chunks).toString() }));
    },
  });
  await new Promise<void>((resolve, reject) => {
    parser.on("end", resolve);
    parser.on("error", reject);
    parser.end(bytes);
  });
  return seen;
}

describe("tarOf", () => {
  it("writes traversal, absolute and link entries as given", async () => {
    const bytes = tarOf([
      { type: "file", path: "package/package.json", body: '{"name":"a"}' },
      { type: "file", path: "package/../evil.js", body: "boom" },
      { type: "file", path: "/etc/evil", body: "x" },
      { type: "symlink", path: "package/link", target: "/etc/passwd" },
      { type: "hardlink", path: "package/hard", target: "package/package.json" },
      { type: "file", path: `package/${"d/".repeat(60)}long.js`, body: "long" },
    ]);
    expect(await list(bytes)).toEqual([
      { path: "package/package.json", type: "File", body: '{"name":"a"}' },
      { path: "package/../evil.js", type: "File", body: "boom" },
      { path: "/etc/evil", type: "File", body: "x" },
      { path: "package/link", type: "SymbolicLink", linkpath: "/etc/passwd", body: "" },
      { path: "package/hard", type: "Link", linkpath: "package/package.json", body: "" },
      { path: `package/${"d/".repeat(60)}long.js`, type: "File", body: "long" },
    ]);
  });

  it("packageTarball puts every file under package/", async () => {
    expect((await list(packageTarball({ "index.js": "1" }))).map((e) => e.path)).toEqual(["package/index.js"]);
  });
});

describe("startNpmRegistry", () => {
  let registry: NpmRegistryStandIn;
  afterEach(() => registry.close());

  it("serves documents (scoped names encoded) and tarballs with their real integrity, and records requests", async () => {
    registry = await startNpmRegistry();
    const published = registry.publish({ name: "@s/a", version: "1.0.0", files: { "index.js": "x" }, publisher: "alice" });
    const doc = (await (await fetch(`${registry.url}@s%2fa`, { headers: { authorization: "Bearer t" } })).json()) as {
      versions: Record<string, { dist: { tarball: string; integrity: string; shasum: string }; _npmUser: { name: string } }>;
    };
    const version = doc.versions["1.0.0"]!;
    expect(version.dist.tarball).toBe(`${registry.url}@s/a/-/a-1.0.0.tgz`);
    expect(version._npmUser.name).toBe("alice");
    const bytes = Buffer.from(await (await fetch(version.dist.tarball)).arrayBuffer());
    expect(sha512Integrity(bytes)).toBe(version.dist.integrity);
    expect(version.dist.integrity).toBe(published.integrity);
    expect(version.dist.shasum).toBe(createHash("sha1").update(bytes).digest("hex"));
    expect(registry.requests.map((r) => [r.url, r.authorization, r.status])).toEqual([
      ["/@s%2fa", "Bearer t", 200],
      ["/@s/a/-/a-1.0.0.tgz", undefined, 200],
    ]);
  });

  it("serves the abbreviated document for npm's Accept, the full one otherwise, a version's manifest, and npm's 404s", async () => {
    registry = await startNpmRegistry();
    registry.publish({ name: "@s/a", version: "1.0.0", manifest: { scripts: { postinstall: "x" }, license: "MIT" }, publisher: "alice", maintainers: ["alice"], deprecated: "old" });
    registry.publish({ name: "@s/a", version: "1.1.0", publishedAt: "2021-02-03T00:00:00.000Z" });
    const get = async (url: string, accept?: string) => {
      const response = await fetch(`${registry.url}${url}`, accept ? { headers: { accept } } : {});
      return { status: response.status, type: response.headers.get("content-type"), body: (await response.json()) as any };
    };
    const corgi = await get("@s%2fa", "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*");
    expect(corgi.type).toBe("application/vnd.npm.install-v1+json");
    expect(Object.keys(corgi.body).sort()).toEqual(["dist-tags", "modified", "name", "versions"]);
    expect(corgi.body.modified).toBe("2021-02-03T00:00:00.000Z");
    expect(Object.keys(corgi.body.versions["1.0.0"]).sort()).toEqual(["deprecated", "dist", "hasInstallScript", "name", "version"]);
    const full = await get("@s%2fa");
    expect(full.type).toBe("application/json");
    expect(full.body.time).toEqual({ created: "2020-01-01T00:00:00.000Z", modified: "2021-02-03T00:00:00.000Z", "1.0.0": "2020-01-01T00:00:00.000Z", "1.1.0": "2021-02-03T00:00:00.000Z" });
    expect(full.body.versions["1.0.0"]).toMatchObject({ _npmUser: { name: "alice" }, license: "MIT", maintainers: [{ name: "alice" }] });
    expect((await get("@s%2fa", "application/vnd.npm.install-v1+json; q=0")).body.time).toBeDefined();
    expect((await get("@s%2fa/1.0.0")).body).toMatchObject({ _id: "@s/a@1.0.0", _npmUser: { name: "alice" } });
    expect((await get("@s%2fa/latest")).body.version).toBe("1.1.0");
    expect(await get("@s%2fa/2.0.0")).toMatchObject({ status: 404, body: "version not found: 2.0.0" });
    expect(await get("@s%2fb")).toMatchObject({ status: 404, body: { error: "Not found" } });
    expect(registry.fullDocumentRequests().map((r) => r.url)).toEqual(["/@s%2fa", "/@s%2fa"]);
  });

  it("answers a status, a redirect and oversized bodies on request", async () => {
    registry = await startNpmRegistry();
    registry.behave("/gone", { status: 404 });
    registry.behave("/moved", { redirect: "http://127.0.0.1:9/elsewhere" });
    registry.behave("/big", { bytes: 3 * 65536 + 5, chunked: true });
    expect((await fetch(`${registry.url}gone`)).status).toBe(404);
    expect((await fetch(`${registry.url}moved`, { redirect: "manual" })).headers.get("location")).toBe("http://127.0.0.1:9/elsewhere");
    const big = await fetch(`${registry.url}big`);
    expect(big.headers.get("content-length")).toBeNull();
    expect((await big.arrayBuffer()).byteLength).toBe(3 * 65536 + 5);
  });
});
