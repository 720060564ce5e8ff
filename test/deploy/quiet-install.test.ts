/**
 * `npm ci` installs quietly on the oldest Node the project supports: no package in the lockfile
 * asks for a newer Node than `engines.node` allows (npm's `EBADENGINE` warning), and every
 * package with an install script is approved in package.json's `allowScripts` (npm's
 * `install-scripts` warning; the scripts still run, better-sqlite3's native build among them).
 * Read from the files, without the network.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

/** The parts of the `semver` package (npm's own version rules) used here. */
interface Semver {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
  valid(version: string): string | null;
}
const semver = createRequire(import.meta.url)("semver") as Semver;

interface LockedPackage {
  name?: string;
  version?: string;
  engines?: { node?: string } | string[];
  hasInstallScript?: boolean;
  /** The tarball's URL; absent when the lockfile was written with `omit-lockfile-registry-resolved`. */
  resolved?: string;
}

const read = async (file: string) => JSON.parse(await readFile(new URL(`../../${file}`, import.meta.url), "utf8"));
const manifest = (await read("package.json")) as { engines: { node: string }; allowScripts?: Record<string, boolean> };
const lock = (await read("package-lock.json")) as { packages: Record<string, LockedPackage> };

/** `node_modules/a/node_modules/@s/b` → `@s/b`: the name npm matches `allowScripts` against. */
const nameOf = (key: string, pkg: LockedPackage) => pkg.name ?? key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);
const locked = Object.entries(lock.packages).filter(([key]) => key !== "").map(([key, pkg]) => ({ key, name: nameOf(key, pkg), pkg }));

/**
 * Whether an `allowScripts` key covers `name@version` as npm reads it: a bare name or `name@*`
 * every version, `name@1.2.3 || 1.2.4` exactly those; npm ignores ranges (`^`, `>=`). npm takes
 * the version only from the lockfile's `resolved` URL (never from a tarball's own package.json):
 * without one, a pinned approval covers nothing and a pinned denial everything.
 */
function covers(key: string, dep: { name: string; version: string; resolved?: string }, denial = false): boolean {
  const at = key.lastIndexOf("@");
  const [keyName, spec] = at > 0 ? [key.slice(0, at), key.slice(at + 1).trim()] : [key, ""];
  if (keyName !== dep.name) return false;
  if (spec === "" || spec === "*") return true;
  const exact = spec.split("||").map((part) => part.trim());
  if (!exact.every((v) => semver.valid(v) === v)) return false;
  return dep.resolved === undefined ? denial : exact.includes(dep.version);
}

describe("covers (how npm matches an allowScripts key)", () => {
  const url = "https://registry.example/esbuild/-/esbuild-0.28.2.tgz";
  it.each([
    ["esbuild", "esbuild", "0.28.2", undefined, true],
    ["esbuild@*", "esbuild", "0.28.2", undefined, true],
    ["esbuild@0.28.2", "esbuild", "0.28.2", url, true],
    ["esbuild@0.28.1 || 0.28.2", "esbuild", "0.28.2", url, true],
    ["@scope/pkg@1.0.0", "@scope/pkg", "1.0.0", url, true],
    ["esbuild@0.28.2", "esbuild", "0.28.2", undefined, false],
    ["esbuild@0.28.1", "esbuild", "0.28.2", url, false],
    ["esbuild@^0.28.0", "esbuild", "0.28.2", url, false],
    ["esbuild-wasm", "esbuild", "0.28.2", undefined, false],
  ])("%s approves %s@%s (resolved: %s): %s", (key, name, version, resolved, expected) => {
    expect(covers(key, { name, version, ...(resolved ? { resolved } : {}) })).toBe(expected);
  });

  it("lets a pinned denial block a version it cannot verify, as npm fails closed", () => {
    expect(covers("esbuild@0.28.1", { name: "esbuild", version: "0.28.2" }, true)).toBe(true);
    expect(covers("esbuild@0.28.1", { name: "esbuild", version: "0.28.2", resolved: url }, true)).toBe(false);
  });
});

describe("npm ci on the oldest supported Node", () => {
  const oldest = semver.minVersion(manifest.engines.node)!.version;

  it("reads the lockfile (the checks below are not vacuous)", () => {
    expect(locked.length).toBeGreaterThan(100);
    expect(locked.filter((p) => p.pkg.hasInstallScript).map((p) => p.name)).toContain("better-sqlite3");
  });

  it(`installs no package whose engines.node leaves out Node ${manifest.engines.node}'s oldest version`, () => {
    const refusing = locked.flatMap(({ key, pkg }) => {
      const range = Array.isArray(pkg.engines) ? undefined : pkg.engines?.node;
      return range !== undefined && !semver.satisfies(oldest, range) ? [`${key}@${pkg.version}: node ${range}`] : [];
    });
    expect(refusing).toEqual([]);
  });

  it("approves every install script in package.json's allowScripts, and denies none (a denial wins in npm)", () => {
    const keys = Object.entries(manifest.allowScripts ?? {});
    const matching = (name: string, pkg: LockedPackage, allowed: boolean) =>
      keys.some(([key, value]) => value === allowed && covers(key, { name, version: pkg.version!, ...(pkg.resolved ? { resolved: pkg.resolved } : {}) }, !allowed));
    const unapproved = locked
      .filter(({ pkg }) => pkg.hasInstallScript)
      .filter(({ name, pkg }) => !matching(name, pkg, true) || matching(name, pkg, false))
      .map(({ name, pkg }) => `${name}@${pkg.version}`);
    expect(unapproved).toEqual([]);
  });
});
