/**
 * crewbot's own reads of a checkout (and of folders made from the repository) go through one
 * confined reader, `src/workspace/confined-read.ts` (DESIGN.md §4). This scans src/ for every file
 * system read — a read function imported from `fs`, or a namespace import of `fs` — and allows it
 * only in the reader and in the files below, each with the reason it never reads a repository's
 * file by a path the repository chose.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tsFilesUnder } from "../helpers/source-files.js";

const SRC = path.resolve(import.meta.dirname, "../../src");
const READER = "src/workspace/confined-read.ts";

/** Functions of `fs` that read a file's or a directory's contents (or follow a link to say where it leads). */
const READS = new Set([
  "readFile", "readFileSync", "createReadStream", "open", "openSync", "opendir", "opendirSync",
  "readdir", "readdirSync", "readlink", "readlinkSync", "read", "readSync", "readv", "readvSync",
  "copyFile", "copyFileSync", "cp", "cpSync", "watch", "watchFile",
]);

/** Every file system read outside the confined reader, and why it is not a read of a repository's file. */
const ALLOWED: Record<string, string> = {
  "src/tools/read.ts": "the agents' read tool: every path through tools/paths.ts resolvePath (realpath-confined)",
  "src/tools/grep.ts": "the agents' grep tool: every path through tools/paths.ts resolvePath",
  "src/tools/edit.ts": "the agents' edit tool: every path through tools/paths.ts resolvePath",
  "src/tools/ls.ts": "the agents' ls tool: every path through tools/paths.ts resolvePath",
  "src/tools/write.ts": "opens for writing only (O_NOFOLLOW), after tools/paths.ts resolvePath",
  "src/tools/limits.ts": "the host's /proc/self and cgroup files; a checkout's sizes by lstat, never its contents",
  "src/tools/scratch-room.ts": "the job's own scratch space, for its total size (lstat), never contents",
  "src/tools/sandbox.ts": "the host's system folders (/usr, /lib links) for the sandbox's layout",
  "src/tools/sandbox-network.ts": "the host's /proc/<pid> of the sandbox's own helper processes",
  "src/config/load.ts": "the operator's local config file (`crewbot config validate`)",
  "src/agent/operator-file.ts": "the operator's own files: prices (CREWBOT_PRICES), model ids (CREWBOT_MODEL_IDS), MCP servers (CREWBOT_MCP_CONFIG)",
  "src/app/dotenv.ts": "the operator's `.env` in the working directory, read once when a process starts",
  "src/web/artifacts.ts": "the data dir's job artifacts (crewbot's own outputs), confined to the job's folder",
  "src/transcripts/job-files.ts": "the data dir's job artifacts (crewbot's own outputs, read-only to the sandbox), regular files only, opened with O_NOFOLLOW",
  "src/tools/copy-tree.ts": "copies a proof's tree into a throwaway folder within bounds: entries by lstat, symlinks copied as links (readlink, never followed), files by copyFile, never read by crewbot",
  "src/tools/prove.ts": "has the checkout copied into a throwaway folder (tools/copy-tree.ts) and opens reproducer files for writing only (O_NOFOLLOW, parent realpath-confined)",
  "src/store/retention.ts": "the data dir's job folders, swept by age",
  "src/store/sqlite/database.ts": "creates the data dir's database file",
  "src/workspace/mirror.ts": "the data dir's bare mirrors, listed for pruning and sizes",
  "src/workspace/lock.ts": "creates the data dir's lock files (open with wx)",
  "src/workspace/checkout.ts": "checks crewbot's own fresh destination folder is empty",
  "src/jobs/default-branch.ts": "checks crewbot's own fresh destination folder is empty",
  "src/dependencies/tarball-cache.ts": "the data dir's npm tarball cache: files named by a sha512 hex of verified bytes, re-verified on every read",
};

/** The agents' tools: allowed only because each resolves its paths through tools/paths.ts. */
const TOOLS_THROUGH_PATHS = ["src/tools/read.ts", "src/tools/grep.ts", "src/tools/edit.ts", "src/tools/ls.ts", "src/tools/write.ts"];

const FS_MODULE = /^(?:node:)?fs(?:\/promises)?$/;

/** The file system reads a source text makes: `name` for each read it imports or calls through a namespace. */
export function fsReads(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/import\s+(type\s+)?([^;]*?)\s+from\s*["']([^"']+)["']/g)) {
    if (m[1] || !FS_MODULE.test(m[3]!)) continue;
    const clause = m[2]!;
    const named = /\{([^}]*)\}/.exec(clause)?.[1] ?? "";
    const namespaces: string[] = [];
    for (const part of named.split(",")) {
      if (/^\s*type\s/.test(part)) continue;
      const [name, alias] = part.trim().split(/\s+as\s+/);
      if (READS.has(name!)) found.push(name!);
      if (name === "promises") namespaces.push(alias ?? name);
    }
    // `import fs from "node:fs"`, `import * as fs from …`, `import { promises as fs }`: every `fs.<read>(` call counts.
    const whole = /^(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)/.exec(clause.replace(/\{[^}]*\}/, "").replace(/,\s*$/, "").trim());
    if (whole) namespaces.push(whole[1]!);
    for (const ns of namespaces) {
      for (const c of text.matchAll(new RegExp(`\\b${ns}\\.(?:promises\\.)?(\\w+)\\s*\\(`, "g"))) if (READS.has(c[1]!)) found.push(c[1]!);
    }
  }
  // `require("fs")` or `await import("node:fs")` sidesteps the import scan: counted as a read.
  for (const m of text.matchAll(/(?:require|import)\(\s*["']((?:node:)?fs(?:\/promises)?)["']\s*\)/g)) found.push(`dynamic ${m[1]}`);
  return [...new Set(found)];
}

const SOURCES = tsFilesUnder(SRC).map((absolute) => ({ file: path.relative(path.dirname(SRC), absolute), text: readFileSync(absolute, "utf8") }));

describe("crewbot's own reads of a checkout go through the confined reader", () => {
  it("finds the sources and the reader (the rule is not vacuous)", () => {
    expect(SOURCES.length).toBeGreaterThan(150);
    expect(fsReads(SOURCES.find((s) => s.file === READER)!.text)).toEqual(expect.arrayContaining(["open", "readdir"]));
  });

  it("no file system read outside the reader and the reasoned allowlist", () => {
    const offenders = SOURCES.filter((s) => s.file !== READER && !(s.file in ALLOWED))
      .map((s) => ({ file: s.file, reads: fsReads(s.text) }))
      .filter((s) => s.reads.length > 0)
      .map((s) => `${s.file}: ${s.reads.join(", ")} — read a checkout through src/workspace/confined-read.ts, or add a reasoned entry to ALLOWED`);
    expect(offenders).toEqual([]);
  });

  it("every allowlisted file still reads (no stale entry), and the agents' tools resolve their paths through tools/paths.ts", () => {
    const stale = Object.keys(ALLOWED).filter((file) => fsReads(SOURCES.find((s) => s.file === file)?.text ?? "").length === 0);
    expect(stale).toEqual([]);
    const unresolved = TOOLS_THROUGH_PATHS.filter((file) => !/\bresolvePath\(/.test(SOURCES.find((s) => s.file === file)!.text));
    expect(unresolved).toEqual([]);
  });

  it.each([
    ['import { readFile } from "node:fs/promises";\nconst t = await readFile(path.join(prepared.root, "a"));', ["readFile"]],
    ['import { readFileSync as r, mkdirSync } from "fs";', ["readFileSync"]],
    ['import fs from "node:fs";\nfs.readFileSync(path.join(root, file));', ["readFileSync"]],
    ['import * as fsp from "node:fs/promises";\nawait fsp.open(full, "r");', ["open"]],
    ['import { promises as fs } from "node:fs";\nawait fs.readFile(path.join(dirs.workDir, "checkout", name));', ["readFile"]],
    ['const fs = await import("node:fs/promises");', ["dynamic node:fs/promises"]],
    ['import { mkdir, writeFile, type Dirent } from "node:fs/promises";', []],
    ['import type { Dirent } from "node:fs";', []],
  ])("the scan sees %j", (source, reads) => {
    expect(fsReads(source)).toEqual(reads);
  });
});
