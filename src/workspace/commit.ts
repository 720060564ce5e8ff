/** One commit per finished plan step, authored by the app, with the requester as co-author. */
import { lstat, rm } from "node:fs/promises";
import path from "node:path";
import type { GitIdentity } from "../github/types.js";
import { git, type GitOptions } from "./git.js";


/** A GitHub user's noreply address: with the id it is attributed to them whatever their account's age. */
export function noreplyIdentity(login: string, id?: number, domain = "users.noreply.github.com"): GitIdentity {
  return { name: login, email: id === undefined ? `${login}@${domain}` : `${id}+${login}@${domain}` };
}

export interface CommitStepOptions {
  /** The job's checkout (a work tree with a HEAD). */
  checkout: string;
  /** The plan step's text: its first 100 characters on one line are the subject, all of it the body when longer. */
  step: string;
  /** The app's bot identity, author and committer: e.g. `my-app[bot]` and `<id>+my-app[bot]@users.noreply.github.com`. */
  author: GitIdentity;
  /** The person who asked: a `Co-authored-by:` trailer. */
  coAuthor?: GitIdentity;
  /** `implement.allowWorkflowEdits`: when false (default) changes under `.github/workflows/` and `.github/actions/` are refused. */
  allowWorkflowEdits?: boolean;
}

export interface StepCommit {
  /** The new commit, or undefined when nothing (that may be committed) changed since the last one. */
  sha: string | undefined;
  /** Paths the commit changed (added, modified, deleted). */
  files: string[];
  /** Paths under `.github/workflows/` or `.github/actions/` that were changed but not committed; they were restored to HEAD. */
  refused: string[];
  /** Nested repositories in the work tree (a `.git` below the top), left out of the commit untouched; set when there are any. */
  nested?: string[];
}

/** What a user reads about changes the commit left out. */
export const refusedNotes = (refused: readonly string[]): string[] =>
  refused.map((file) => `Not committed: ${file} (changes under ${/^\.github\/actions(?:\/|$)/i.test(file) ? ".github/actions" : ".github/workflows"} are not allowed)`);

/**
 * Where GitHub runs workflows from (pushing changes there needs the `workflows` permission):
 * `.github/workflows` and everything under it; `.github/actions`, the local actions those
 * workflows run (`uses: ./.github/actions/x`) with the repository's secrets; and `.github`
 * itself — a file or symlink in its place removes both. Matched case-insensitively, to be on the safe side.
 */
export function isWorkflowPath(file: string): boolean {
  return /^\.github(?:\/(?:workflows|actions)(?:\/|$)|$)/i.test(file);
}

export const SUBJECT_MAX_LENGTH = 100;

/** The message lines of a step: a one-line subject, and the full text as body when the subject had to be cut. */
export function stepMessage(step: string, max = SUBJECT_MAX_LENGTH): { subject: string; body?: string } {
  // Control and format characters (bidi overrides, zero-width) have no place in a subject.
  const text = step.replace(/[\p{Cc}\p{Cf}]/gu, " ").replace(/\s+/g, " ").trim() || "crewbot step";
  if (text.length <= max) return { subject: text };
  let cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  if (space >= max / 2) cut = cut.slice(0, space);
  return { subject: `${cut.trimEnd()}…`, body: text };
}

function checkIdentity({ name, email }: GitIdentity, who: string): GitIdentity {
  const cleanName = name.replace(/[<>]/g, "").replace(/[\p{Cc}\p{Cf}]/gu, " ").replace(/\s+/g, " ").trim();
  if (!cleanName) throw new Error(`${who} needs a name`);
  if (!/^[^\s<>@]+@[^\s<>@]+$/.test(email)) throw new Error(`${who} has an invalid email ${JSON.stringify(email)}`);
  return { name: cleanName, email };
}

const literal = (file: string) => `:(literal)${file}`;

/** Runs `git <args> <pathspecs…>` in chunks that stay far below the argv limit. */
async function inChunks(args: string[], files: string[], opts: GitOptions): Promise<void> {
  for (let i = 0; i < files.length; i += 200) await git([...args, "--", ...files.slice(i, i + 200).map(literal)], opts);
}

/**
 * Directories of the work tree that are repositories of their own: untracked ones (`ls-files`
 * lists them as `dir/`) and gitlinks (submodules) whose directory holds a `.git`. `git add` runs
 * `git status` inside a gitlink's repository, which reads that repository's config — its filter
 * drivers would run on the host, outside the agents' sandbox (which can create such a repository
 * but not touch the checkout's own `.git`). So crewbot never lets git look inside them.
 */
async function nestedRepositories(checkout: string, opts: GitOptions): Promise<string[]> {
  const untracked = (await git(["ls-files", "--others", "--exclude-standard", "-z", "--", ":/"], opts))
    .split("\0")
    .filter((file) => file.endsWith("/"))
    .map((dir) => dir.slice(0, -1));
  const gitlinks: string[] = [];
  for (const entry of (await git(["ls-files", "--stage", "-z", "--", ":/"], opts)).split("\0")) {
    const match = /^160000 [0-9a-f]+ \d\t(.+)$/s.exec(entry);
    if (match && (await lstat(path.join(checkout, match[1]!, ".git")).catch(() => undefined))) gitlinks.push(match[1]!);
  }
  return [...new Set([...untracked, ...gitlinks])].sort();
}

/** Staged changes against HEAD: status letter and path (`-z`: paths exactly as they are, no renames). */
async function stagedChanges(opts: GitOptions): Promise<{ status: string; file: string }[]> {
  const out = await git(["diff", "--cached", "--name-status", "--no-renames", "-z", "HEAD", "--"], opts);
  const parts = out.split("\0");
  const changes: { status: string; file: string }[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) changes.push({ status: parts[i] ?? "", file: parts[i + 1] ?? "" });
  return changes;
}

/**
 * Commits everything that changed in the checkout since its last commit, as one commit whose
 * subject is the step's text, authored and committed by `author`, with a `Co-authored-by`
 * trailer for `coAuthor`. Changes under `.github/workflows/` and `.github/actions/` are refused unless allowed: they are
 * not committed, the files are put back as they are in HEAD, and the result lists them. Nothing
 * left to commit → no commit (`sha` undefined). No hook of the repository runs, nothing is signed.
 * Nested repositories (a `.git` below the top) are neither committed nor looked into (`nested`).
 */
export async function commitStep(options: CommitStepOptions): Promise<StepCommit> {
  const { checkout, allowWorkflowEdits = false } = options;
  const author = checkIdentity(options.author, "the commit author");
  const coAuthor = options.coAuthor && checkIdentity(options.coAuthor, "the co-author");
  const opts: GitOptions = { cwd: checkout, workspace: true };

  // Restoring a refused path can unstage its neighbours (`.github` as a pathspec is a directory
  // too), so the changes are staged and checked again until none is refused.
  const refused: string[] = [];
  let files: string[] = [];
  const nested = await nestedRepositories(checkout, opts);
  const leftOut = nested.map((dir) => `:(exclude,literal)${dir}`);
  const withNested = (result: StepCommit): StepCommit => (nested.length > 0 ? { ...result, nested } : result);
  for (let round = 1; ; round++) {
    await git(["add", "--all", "--", ":/", ...leftOut], opts);
    const changes = await stagedChanges(opts);
    const refusedChanges = allowWorkflowEdits ? [] : changes.filter((c) => isWorkflowPath(c.file));
    files = changes.filter((c) => !refusedChanges.includes(c)).map((c) => c.file);
    if (refusedChanges.length === 0) break;
    if (round === 3) throw new Error(`could not undo the changes to ${refusedChanges.map((c) => c.file).join(", ")}`);
    refused.push(...refusedChanges.map((c) => c.file).filter((file) => !refused.includes(file)));
    await inChunks(["reset", "--quiet", "HEAD"], refusedChanges.map((c) => c.file), opts);
    // New files go; changed and deleted ones come back from HEAD (removals first: a file may
    // have taken the place of a directory whose files come back).
    for (const c of refusedChanges) if (c.status === "A") await rm(path.join(checkout, c.file), { recursive: true, force: true });
    const fromHead = refusedChanges.filter((c) => c.status !== "A").map((c) => c.file);
    if (fromHead.length > 0) await inChunks(["checkout", "--quiet", "HEAD"], fromHead, opts);
  }
  if (files.length === 0) return withNested({ sha: undefined, files, refused });

  const { subject, body } = stepMessage(options.step);
  const message = ["-m", subject];
  if (body !== undefined) message.push("-m", body);
  if (coAuthor) message.push("-m", `Co-authored-by: ${coAuthor.name} <${coAuthor.email}>`);
  const identity = ["user", "author", "committer"].flatMap((who) => [`${who}.name=${author.name}`, `${who}.email=${author.email}`]);
  await git(["commit", "--quiet", "--no-verify", "--no-gpg-sign", "--cleanup=whitespace", ...message], {
    ...opts,
    config: [...identity, "commit.gpgSign=false", "i18n.commitEncoding=UTF-8"],
  });
  const sha = (await git(["rev-parse", "--verify", "HEAD^{commit}"], opts)).trim();
  return withNested({ sha, files, refused });
}
