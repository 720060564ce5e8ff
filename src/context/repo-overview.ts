/**
 * A short overview of the checkout for the reviewer's first turn, so it does not spend one on
 * `ls` and `cat package.json`: how many files and where, whether there are tests, the package's
 * scripts, engines and dependencies (and that none are installed), other ecosystems' manifests at
 * the root and the language version each asks for, which Node the commands run,
 * whether the team's learnings are given. Everything is read from the checkout through the
 * confined reader and git's tree, is the repository's data (never instructions), and the whole
 * section stays under OVERVIEW_MAX_CHARS.
 */
import type { ContextSection } from "../text/prompt.js";
import { SAFE_PATH } from "../tools/env.js";
import { oneLine } from "../tools/index.js";
import { runProcess } from "../tools/spawn.js";
import { git } from "../workspace/git.js";
import { listConfined, readConfined } from "../workspace/confined-read.js";
import { LEARNINGS_PATH } from "../learnings/types.js";

export const OVERVIEW_MAX_CHARS = 3000;
const PACKAGE_MAX_BYTES = 256 * 1024;
const MAX_FOLDERS = 12;
const MAX_ROOT_FILES = 20;
const MAX_SCRIPTS = 15;
const SCRIPT_CHARS = 100;
/** Where a file counts as a test: a test folder, or a `.test.`/`.spec.`/`_test.` name. */
const TEST_FILE = /(^|\/)(tests?|__tests__|spec)\/|[._-](test|spec)\.[a-z]+$|(^|\/)test_[^/]+\.py$/i;
/** npm's `npm init` placeholder: a test script that tests nothing. */
const NO_TEST_SCRIPT = /no test specified/;

export interface OverviewFacts {
  /** Learnings of the default branch given in the context (0: none). */
  learnings: number;
}

/** The whole overview's cap; a value from package.json is made one line first (`oneLine`): a newline in it must not read as a line of the overview. */
const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The head's tracked files, from git's tree (not the file system: nothing a symlink points at is walked). */
async function trackedFiles(root: string): Promise<string[]> {
  const out = await git(["ls-tree", "-r", "-z", "--name-only", "HEAD"], { cwd: root, workspace: true, maxBuffer: 512 * 1024 * 1024 }).catch(() => "");
  return out.split("\0").filter((f) => f !== "");
}

function fileLines(files: readonly string[]): string[] {
  const folders = new Map<string, number>();
  const rootFiles: string[] = [];
  for (const f of files) {
    const slash = f.indexOf("/");
    if (slash === -1) rootFiles.push(f);
    else folders.set(f.slice(0, slash), (folders.get(f.slice(0, slash)) ?? 0) + 1);
  }
  const top = [...folders].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const shown = top.slice(0, MAX_FOLDERS).map(([name, n]) => `${name}/ (${n})`);
  const tests = files.filter((f) => TEST_FILE.test(f));
  return [
    `Files: ${files.length} tracked at the head.`,
    ...(top.length > 0 ? [`Top-level folders (files): ${shown.join(", ")}${top.length > MAX_FOLDERS ? `, and ${top.length - MAX_FOLDERS} more` : ""}.`] : []),
    ...(rootFiles.length > 0 ? [`Top-level files: ${rootFiles.slice(0, MAX_ROOT_FILES).join(", ")}${rootFiles.length > MAX_ROOT_FILES ? ", …" : ""}.`] : []),
    tests.length > 0 ? `Test files: ${tests.length} (e.g. ${tests.slice(0, 3).join(", ")}).` : "Test files: none found.",
  ];
}

type Manifest = { scripts?: unknown; engines?: unknown; dependencies?: unknown; devDependencies?: unknown; type?: unknown; packageManager?: unknown };

const entries = (v: unknown): [string, string][] =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? Object.entries(v).filter((e): e is [string, string] => typeof e[1] === "string") : [];

async function packageLines(root: string): Promise<string[]> {
  const read = await readConfined(root, "package.json", { maxBytes: PACKAGE_MAX_BYTES, noSymlinks: true });
  if (!read.ok) return [read.kind === "missing" ? "package.json: none at the root." : `package.json: not readable (${read.reason}).`];
  let pkg: Manifest;
  try {
    pkg = JSON.parse(read.text) as Manifest;
  } catch {
    return ["package.json: not valid JSON (or over 256 KB)."];
  }
  const scripts = entries(pkg.scripts);
  const engines = entries(pkg.engines);
  const deps = entries(pkg.dependencies).length;
  const dev = entries(pkg.devDependencies).length;
  const installed = (await listConfined(root, "node_modules")).ok;
  const test = scripts.find(([name]) => name === "test");
  const runner = test && !NO_TEST_SCRIPT.test(test[1]) ? `the \`test\` script: ${oneLine(test[1], SCRIPT_CHARS)}` : "none (no `test` script): a plain `node` reproducer is the way to prove";
  const shownScripts = scripts.slice(0, MAX_SCRIPTS).map(([name, cmd]) => `${name}: ${oneLine(cmd, SCRIPT_CHARS)}`);
  return [
    `package.json:${typeof pkg.type === "string" ? ` "type": ${oneLine(pkg.type, 20)};` : ""} engines: ${engines.length > 0 ? engines.map(([k, v]) => `${k} ${oneLine(v, 40)}`).join(", ") : "none declared"}.`,
    `Scripts: ${shownScripts.length > 0 ? `\n${shownScripts.map((s) => `- ${s}`).join("\n")}${scripts.length > MAX_SCRIPTS ? `\n- … and ${scripts.length - MAX_SCRIPTS} more` : ""}` : "none."}`,
    `Test runner: ${runner}.`,
    `Dependencies: ${deps}, devDependencies: ${dev}; ${installed ? "node_modules is present" : "not installed (the checkout has no node_modules, and nothing is installed for a review)"}.`,
  ];
}

/** Other ecosystems' manifests at the root, and the line of each that says which language version it needs. */
const MANIFESTS: ReadonlyArray<{ file: string; ecosystem: string; version?: RegExp }> = [
  { file: "pyproject.toml", ecosystem: "Python", version: /^\s*requires-python\s*=\s*["']([^"'\n]{1,40})["']/m },
  { file: "setup.py", ecosystem: "Python" },
  { file: "requirements.txt", ecosystem: "Python" },
  { file: "go.mod", ecosystem: "Go", version: /^go\s+(\S{1,20})\s*$/m },
  { file: "Cargo.toml", ecosystem: "Rust", version: /^\s*rust-version\s*=\s*"([^"\n]{1,20})"/m },
  { file: "Gemfile", ecosystem: "Ruby", version: /^\s*ruby\s+["']([^"'\n]{1,20})["']/m },
  { file: "pom.xml", ecosystem: "Java (Maven)" },
  { file: "build.gradle", ecosystem: "JVM (Gradle)" },
  { file: "build.gradle.kts", ecosystem: "JVM (Gradle)" },
  { file: "composer.json", ecosystem: "PHP" },
];
const MANIFEST_MAX_BYTES = 64 * 1024;

/** The other manifests the root holds, each with the language version it asks for where it says one. */
async function otherManifestLines(root: string, rootFiles: ReadonlySet<string>): Promise<string[]> {
  const found: string[] = [];
  for (const m of MANIFESTS.filter((x) => rootFiles.has(x.file))) {
    const read = m.version ? await readConfined(root, m.file, { maxBytes: MANIFEST_MAX_BYTES, noSymlinks: true }) : undefined;
    const version = read?.ok ? m.version!.exec(read.text)?.[1] : undefined;
    found.push(`${m.file} (${m.ecosystem}${version ? `, needs ${oneLine(version, 40)}` : ""})`);
  }
  return found.length > 0 ? [`Other manifests: ${found.join(", ")}.`] : [];
}

let nodeVersion: Promise<string> | undefined;

/** The `node` the commands find on their fixed PATH (the same for every job, so asked once). */
function commandNode(): Promise<string> {
  nodeVersion ??= (async () => {
    let out = "";
    const res = await runProcess(["/bin/sh", "-c", "node --version"], { cwd: "/", env: { PATH: SAFE_PATH }, timeoutMs: 5000, onData: (c) => (out += c.toString("utf8")) });
    if (res.exitCode === 0 && /^v\d+\.\d+\.\d+/.test(out.trim())) return out.trim();
    // Asked again next time: a probe that failed once (a timeout under load) is no lasting fact.
    nodeVersion = undefined;
    return "none on the commands' PATH";
  })();
  return nodeVersion;
}

/** The overview as one context section of the reviewer's first message. */
export async function repoOverview(root: string, facts: OverviewFacts): Promise<ContextSection> {
  const files = await trackedFiles(root);
  const rootFiles = new Set(files.filter((f) => !f.includes("/")));
  const others = await otherManifestLines(root, rootFiles);
  // A repository of another language is not told about a package.json it has no use for.
  const npm = rootFiles.has("package.json") || others.length === 0 ? await packageLines(root) : [];
  const lines = [
    ...fileLines(files),
    ...npm,
    ...others,
    `Node that commands (bash, prove) run: ${await commandNode()}.`,
    `Learnings file (${LEARNINGS_PATH}, default branch): ${facts.learnings > 0 ? `${plural(facts.learnings, "learning")}, given in this context` : "none"}.`,
  ];
  const text = lines.join("\n");
  return { source: "pull request head: overview of the repository (crewbot's summary of its files and manifests)", text: cut(text, OVERVIEW_MAX_CHARS) };
}
