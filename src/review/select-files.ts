/**
 * What the reviewer reviews when a diff is too big to read whole: files nobody reviews by hand
 * (lockfiles, generated, vendored, binary, deleted) and files `review.paths` excludes are left
 * out first, then the rest is taken by risk until the budget is used. Every file lands in exactly
 * one list, with a reason for the review body: a partial review is never silent.
 */
import type { DiffFile } from "./diff-lines.js";
import picomatch from "picomatch";

export type NotReviewedReason =
  | "excluded by review.paths"
  | "vendored"
  | "lockfile"
  | "generated"
  | "binary"
  | "deleted"
  | "over the review budget";

export interface NotReviewed {
  path: string;
  reason: NotReviewedReason;
}

export interface Selection {
  reviewed: DiffFile[];
  notReviewed: NotReviewed[];
}

export interface ReviewBudget {
  /** Added + deleted lines over all reviewed files. */
  maxChangedLines: number;
  maxFiles: number;
}

export const DEFAULT_BUDGET: ReviewBudget = { maxChangedLines: 3000, maxFiles: 60 };

/** DESIGN.md §5 `review.paths`. */
export interface PathFilter {
  include?: readonly string[];
  exclude?: readonly string[];
}

export interface SelectOptions {
  budget?: Partial<ReviewBudget>;
  paths?: PathFilter;
}

const LOCKFILES = new Set([
  "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", "bun.lock",
  "Cargo.lock", "poetry.lock", "Pipfile.lock", "uv.lock", "pdm.lock", "Gemfile.lock", "composer.lock",
  "go.sum", "mix.lock", "pubspec.lock", "Podfile.lock", "packages.lock.json", "flake.lock",
  "gradle.lockfile", "Package.resolved", "deno.lock", "shard.lock", "Manifest.toml",
]);

const VENDORED_DIRS = new Set(["vendor", "node_modules", "third_party", "third-party", "bower_components", ".yarn"]);
const GENERATED_DIRS = new Set(["dist", "build", "__snapshots__", "__generated__", "generated"]);
const GENERATED_NAMES = [
  /\.min\.(js|mjs|css)$/, /\.(js|css)\.map$/, /\.generated\./, /[._]generated\.\w+$/, /\.pb\.go$/, /_pb2(_grpc)?\.pyi?$/,
  /\.pb\.(cc|h)$/, /_pb\.(js|d\.ts)$/, /\.snap$/, /\.g\.dart$/, /\.freezed\.dart$/, /\.designer\.cs$/, /_string\.go$/,
];

function parts(path: string): { dirs: string[]; name: string } {
  const all = path.split("/");
  return { dirs: all.slice(0, -1), name: all.at(-1) ?? "" };
}

/** Why nobody reviews this path by hand, if so (lockfile, generated, vendored). */
export function skipReason(path: string): "vendored" | "lockfile" | "generated" | null {
  const { dirs, name } = parts(path);
  // Vendored first: a lockfile or a build output inside vendor/ is still someone else's code.
  if (dirs.some((d) => VENDORED_DIRS.has(d))) return "vendored";
  if (LOCKFILES.has(name)) return "lockfile";
  if (dirs.some((d) => GENERATED_DIRS.has(d)) || GENERATED_NAMES.some((re) => re.test(name))) return "generated";
  return null;
}

const TEST_DIRS = new Set(["test", "tests", "__tests__", "spec", "specs", "testdata", "fixtures", "e2e"]);
const TEST_NAMES = [/\.(test|spec)\.\w+$/, /_test\.\w+$/, /^test_.*\.py$/, /Tests?\.(java|kt|cs|swift)$/];
const DOC_EXTS = /\.(md|mdx|markdown|rst|txt|adoc|json|jsonc|ya?ml|toml|ini|cfg|conf|xml|csv|svg|lock|env|properties)$/i;
const DOC_DIRS = new Set(["docs", "doc", ".github", ".vscode", ".idea"]);

/** 0 source code, 1 tests, 2 docs and config: the order the budget is spent in. */
export function riskClass(path: string): 0 | 1 | 2 {
  const { dirs, name } = parts(path);
  if (dirs.some((d) => TEST_DIRS.has(d)) || TEST_NAMES.some((re) => re.test(name))) return 1;
  // A workflow runs with the repository's secrets: it is code, not config.
  if (dirs[0] === ".github" && dirs[1] === "workflows") return 0;
  if (dirs.some((d) => DOC_DIRS.has(d)) || DOC_EXTS.test(name)) return 2;
  // Dotfiles and the usual prose files; other extension-less files (bin/ scripts, Makefile) are code.
  if (name.startsWith(".") || /^(LICEN[CS]E|COPYING|README|CHANGELOG|AUTHORS|NOTICE|CODEOWNERS)\b/i.test(name)) return 2;
  return 0;
}

/**
 * Whether `path` matches one of the globs (picomatch): `**` spans directories, dot files count,
 * and a pattern without `/` matches the name at any depth (like .gitignore), so `*.md` covers
 * `docs/a.md`. Patterns may start with `./`.
 */
export function matchesAny(path: string, globs: readonly string[]): boolean {
  if (globs.length === 0) return false;
  const patterns = globs.map((g) => g.replace(/^\.\//, "")).map((g) => (g.includes("/") ? g : `**/${g}`));
  return picomatch(patterns, { dot: true })(path);
}

function excludedByConfig(path: string, filter: PathFilter | undefined): boolean {
  if (!filter) return false;
  const include = filter.include ?? ["**"];
  return !matchesAny(path, include) || matchesAny(path, filter.exclude ?? []);
}

export const changedLines = (f: DiffFile): number => f.additions + f.deletions;

/**
 * Splits a diff into what the reviewer reads and what it does not (with why). Candidates are
 * ordered source → tests → docs/config, then most changed lines, then path; a file that does not
 * fit in what is left of the budget is skipped and smaller ones after it may still fit.
 */
export function selectFiles(files: readonly DiffFile[], options: SelectOptions = {}): Selection {
  const budget = { ...DEFAULT_BUDGET, ...options.budget };
  const notReviewed: NotReviewed[] = [];
  const candidates: DiffFile[] = [];
  for (const file of files) {
    // The config is checked first: a lockfile someone excluded on purpose says so.
    let reason: NotReviewedReason | null = excludedByConfig(file.path, options.paths)
      ? "excluded by review.paths"
      : skipReason(file.path);
    if (reason === null && file.binary) reason = "binary";
    if (reason === null && file.status === "deleted") reason = "deleted";
    if (reason === null) candidates.push(file);
    else notReviewed.push({ path: file.path, reason });
  }
  candidates.sort(
    (a, b) =>
      riskClass(a.path) - riskClass(b.path) ||
      changedLines(b) - changedLines(a) ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
  const reviewed: DiffFile[] = [];
  let lines = 0;
  for (const file of candidates) {
    if (reviewed.length < budget.maxFiles && lines + changedLines(file) <= budget.maxChangedLines) {
      reviewed.push(file);
      lines += changedLines(file);
    } else {
      notReviewed.push({ path: file.path, reason: "over the review budget" });
    }
  }
  return { reviewed, notReviewed };
}
