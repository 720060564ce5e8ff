/**
 * What the dependency review reads from strangers: a pull request's lockfiles and manifests (any
 * name may be published, so any package may be named), the registry's package documents and the
 * published tarballs. Hostile at the caps: PAX path records of a megabyte, thousands of empty
 * entries, gzip bombs, lockfiles of a hundred thousand changed entries, hundreds of paths on one
 * blob, maintainers' strings of spaces, code texts that make its patterns backtrack.
 */
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import type { PackageContents } from "../../src/dependencies/tarball.js";
import { PROTOTYPE_KEYS, anyText, deepJson, edgeNumber, hostileJson, hostileText, lengthNear } from "./hostile.js";
import { rawTar, type RawEntry } from "./hostile-tar.js";

const MB = 1024 * 1024;

const entryPath = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("package/index.js", "package/package.json", "package/a/b/c.mjs", "package/binding.gyp", "package/x.node", "package/", "package/../x.js", "/etc/x", "C:\\x", "package/./.\\y.ts") },
  { weight: 1, arbitrary: anyText(40).map((s) => `package/${s}`) },
);

const body = fc.oneof(
  fc.constantFrom("", "module.exports = require('child_process')", '{"name":"a","version":"1.0.0","scripts":{"postinstall":"node x"}}', "{", "eval(x)"),
  hostileText({ max: 200_000, tokens: ["require(\"", "http", "\"", "'", "\\x41", "0123456789abcdef", "eval(", "fetch(", "\n"] }),
).map((s) => Buffer.from(s));

const plainEntry: fc.Arbitrary<RawEntry> = fc.record({
  kind: fc.constant("entry" as const),
  type: fc.constantFrom("0", "0", "0", "5", "2", "1", "g", "L", "7"),
  path: entryPath,
  body,
  declaredSize: fc.option(fc.oneof(fc.nat(1_000), fc.constantFrom(0, 100 * MB, 100 * MB + 1, 8 ** 11 - 1)), { nil: undefined }),
  link: fc.option(fc.constantFrom("../../.ssh", "/etc/shadow", "package/index.js"), { nil: undefined }),
});

/** PAX records giving the next entry a path up to 1 MB long (node-tar's cap on one header). */
const paxPath: fc.Arbitrary<RawEntry[]> = fc
  .record({ length: lengthNear(MB - 64, [1_000, 64 * 1024]), char: fc.constantFrom("a", "é", "/", "\0") })
  .map(({ length, char }) => [
    { kind: "pax", records: { path: `package/${char.repeat(Math.floor(length / Buffer.byteLength(char)))}` } },
    { kind: "entry", type: "0", path: "package/x.js", body: Buffer.alloc(0) },
  ]);

/** One entry shape repeated many times (empty files, PAX paths): what caps on entries and header bytes stop. */
const repeated = fc.record({ unit: fc.oneof(paxPath, plainEntry.map((e) => [e])), times: lengthNear(20_000, [100, 1_000, 10_000]) }).map(({ unit, times }) => {
  const bytesPer = unit.reduce((n, e) => n + (e.kind === "pax" ? JSON.stringify(e.records).length : e.body.length) + 1024, 0);
  // Kept under about 160 MB of raw tar: enough to pass any sane cap, not enough to take the test's process down.
  const n = Math.max(1, Math.min(times, Math.floor((160 * MB) / bytesPer)));
  return Array.from({ length: n }, () => unit).flat();
});

/** A published tarball: gzipped (or not), cut short, or bytes that are no tarball at all. */
export const tarball: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ entries: fc.array(plainEntry, { maxLength: 12 }), gzip: fc.boolean() }).map(({ entries, gzip }) => (gzip ? gzipSync(rawTar(entries)) : rawTar(entries))) },
  { weight: 2, arbitrary: fc.record({ entries: repeated, end: fc.constantFrom("zeros" as const, "none" as const) }).map(({ entries, end }) => gzipSync(rawTar(entries, end), { level: 1 })) },
  { weight: 1, arbitrary: fc.record({ size: lengthNear(100 * MB + 1, [100 * MB]), cut: fc.nat() }).map(({ size, cut }) => truncatedBomb(size, cut)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 4_096 }).map((bytes) => Buffer.from(bytes)) },
);

/** A gzip bomb (one file of zeros declared at its size), sometimes cut mid-stream. */
function truncatedBomb(size: number, cut: number): Buffer {
  const raw = rawTar([{ kind: "entry", type: "0", path: "package/zeros.bin", body: Buffer.alloc(size) }]);
  const gz = gzipSync(raw, { level: 1 });
  return cut % 3 === 0 ? gz.subarray(0, cut % gz.length) : gz;
}

const name = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("a", "@scope/b", "left-pad", "node_modules/x", "a/node_modules/b") },
  { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
  { weight: 1, arbitrary: anyText(30) },
);
const version = fc.oneof(fc.constantFrom("1.0.0", "2.0.0-beta.1", "^1.2.3", "latest", "*", "", "x".repeat(300), "1.0.0 || ".repeat(1_000)), anyText(20));
const integrity = fc.oneof(fc.constantFrom(`sha512-${"A".repeat(86)}==`, `sha1-${"B".repeat(27)}=`, `sha512-${"A".repeat(86)}== sha512-${"C".repeat(86)}==`, "sha512-", "md5-x"), anyText(40));

/** A lockfile entry under `node_modules/…`, some of them links, with hostile fields. */
const lockEntry = fc.record({ version, integrity, resolved: fc.oneof(fc.constantFrom("https://registry.npmjs.org/a/-/a-1.0.0.tgz", "git+ssh://x", "file:../x", "http://[", "https://evil/x.tgz"), anyText(30)), link: fc.boolean(), name });

/** Lockfile texts: `count` entries changed between base and head, or JSON that is no lockfile. */
const lockfilePair = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ entries: fc.array(fc.tuple(name, lockEntry), { minLength: 1, maxLength: 6 }), count: lengthNear(150_000, [120_000]), rootDeps: fc.boolean() }).map(({ entries, count, rootDeps }) => {
      const packages = (bump: string) => {
        const out: Record<string, unknown> = { "": rootDeps ? { dependencies: Object.fromEntries(entries.map(([n]) => [n, "*"])) } : {} };
        for (const [n, e] of entries) Object.defineProperty(out, `node_modules/${n}`, { value: { ...e, version: `${e.version}${bump}` }, enumerable: true, writable: true, configurable: true });
        // The many more are small (a version each): a lockfile of many entries, a few MB, not of gigabytes.
        for (let i = entries.length; i < count; i++) out[`node_modules/p${i}`] = { version: `1.0.${i}${bump}` };
        return JSON.stringify({ name: "x", lockfileVersion: 3, packages: out });
      };
      return { base: packages(""), head: packages("-next") };
    }),
  },
  { weight: 2, arbitrary: fc.record({ base: fc.oneof(deepJson(100_000), hostileJson().map((v) => JSON.stringify(v) ?? "null")), head: fc.oneof(deepJson(100_000), hostileText({ max: 20_000, tokens: ["{", "}", "\"packages\":", "\"lockfileVersion\":1", ":", ","] })) }) },
);

const manifest = fc.record({ deps: fc.dictionary(fc.oneof(name, anyText(10)), fc.oneof(version, hostileJson()), { maxKeys: 20, noNullPrototype: true }), field: fc.constantFrom("dependencies", "devDependencies", "peerDependencies", "__proto__") }).map(({ deps, field }) => {
  const out = {};
  Object.defineProperty(out, field, { value: deps, enumerable: true, writable: true, configurable: true });
  return JSON.stringify(out);
});

const dependencyPath = fc.constantFrom("package-lock.json", "package.json", "npm-shrinkwrap.json", "a/package-lock.json", "a/package.json", "packages/web/package.json", "x/node_modules/y/package.json");

/** A pull request's changed paths and the texts of its dependency files at the base and the head. */
export const lockfileChange = fc
  .record({ few: fc.array(dependencyPath, { minLength: 1, maxLength: 6 }), many: lengthNear(400, [50, 200]), lock: lockfilePair, manifests: fc.tuple(manifest, manifest), deleted: fc.boolean() })
  .map(({ few, many, lock, manifests, deleted }) => {
    // Paths × entries kept under 300 000 changes in all: past any sane cap, short of taking the test's process down.
    const entries = Math.max(1, (lock.head.match(/"node_modules\//g) ?? []).length);
    const more = Math.min(many, Math.floor(300_000 / entries));
    return { paths: [...few, ...Array.from({ length: more }, (_, i) => `p${i}/package-lock.json`)], lock, manifests, deleted };
  });

/** A maintainer's "name <email>" string with a long run of spaces and no `<` after it. */
const spacedName = fc.record({ times: lengthNear(100_000, [10_000]), unit: fc.constantFrom(" ", "\t", " \n") }).map(({ times, unit }) => `a${unit.repeat(Math.floor(times / unit.length))}b`);

/** A registry's package document for a name anyone may publish, and what a lockfile or manifest asks of it. */
export const packageDocument = fc.record({
  versions: fc.record({ few: fc.array(fc.tuple(fc.oneof(version, fc.constantFrom(...PROTOTYPE_KEYS)), hostileJson()), { maxLength: 6 }), many: lengthNear(120_000, [100_000]) }),
  maintainers: fc.array(fc.oneof(hostileText({ max: 120_000, tokens: [" ", "<", "a@b", "\t"] }), spacedName, hostileJson()), { maxLength: 4 }),
  tags: hostileJson(),
  time: hostileJson(),
  asked: version,
  source: fc.constantFrom("lockfile" as const, "manifest" as const),
  deprecated: fc.oneof(anyText(20), hostileText({ max: 100_000 })),
}).map(({ versions, maintainers, tags, time, asked, source, deprecated }) => {
  const list: Record<string, unknown> = {};
  for (const [v, meta] of versions.few) Object.defineProperty(list, v, { value: meta, enumerable: true, writable: true });
  for (let i = 0; i < versions.many; i++) list[`1.0.${i}`] = { dist: { integrity: `sha512-${i}` } };
  list["1.0.0"] = { maintainers, _npmUser: { name: maintainers[0] }, deprecated };
  return { document: JSON.parse(JSON.stringify({ name: "a", versions: list, "dist-tags": tags, time })) as Record<string, unknown>, asked, source };
});

const codeText = hostileText({ max: 2 * MB, caps: [2 * MB, 10_000], tokens: ["\"", "'", "`", "\\x41", "0123456789abcdef", "ABCDEFGHabcdefgh+/", "=", "require(", "import(\"", "from '", "node:", "child_process", "fetch (", "eval (", "new Function(", "\n"] });

/** Runs of escaped hex one short of a blob, again and again up to the per-file cap: what makes a blob pattern backtrack. */
const almostBlobs = fc.record({ unit: fc.constantFrom("\\x41", "\\xfF"), run: fc.constantFrom(499, 1_999), size: lengthNear(2 * MB, [2 * MB]) }).map(({ unit, run, size }) => {
  const line = `${unit.repeat(run)};`;
  return line.repeat(Math.max(1, Math.floor(size / line.length)));
});

/** Package contents as read from a tarball: hostile package.json and code files up to the per-file cap. */
const contents: fc.Arbitrary<PackageContents> = fc.record({ packageJson: hostileJson(), files: fc.array(entryPath, { maxLength: 10 }), code: fc.array(fc.tuple(fc.constantFrom("index.js", "a.min.js", "lib/b.mjs", "c.ts"), fc.oneof({ weight: 3, arbitrary: codeText }, { weight: 1, arbitrary: almostBlobs })), { maxLength: 3 }) }).map(({ packageJson, files, code }) => ({
  packageJson: typeof packageJson === "object" && packageJson !== null && !Array.isArray(packageJson) ? (packageJson as Record<string, unknown>) : {},
  files,
  code: new Map(code),
  unreadCode: [],
  bindingGyp: false,
  nativeFiles: files.filter((f) => f.endsWith(".node")),
}));

/** Two versions' contents and the registry's words on them. */
export const versionPair = fc.record({ old: fc.option(contents, { nil: undefined }), now: contents, publishedAt: edgeNumber() });
