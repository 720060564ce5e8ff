/**
 * `implement.commits: api`: the checkout's new commits remade on GitHub through the Git Data API
 * (blobs, a tree on the parent's tree, a commit, then the branch ref) instead of a git push.
 * The commits are sent without `author` and `committer`, so GitHub makes them as the app and signs
 * them (Verified): repositories whose rules require signed commits accept crewbot's branch.
 */
import { PeoplesText } from "../secrets/peoples-text.js";
import { gitBuffer, git, type GitOptions } from "./git.js";
import { adviceFor, BranchRuleError, quoteRules, rulesFromApiError } from "./branch-rules.js";
import { assertPushable, type PushResult, type PushTarget } from "./push.js";
import { SHA, validateBranch } from "./refs.js";

/** What the API push needs of the writer (`GitHubWriter` fits): every request is a write. */
export interface GitDataWriter {
  write<T = unknown>(route: string, params?: Record<string, unknown>): Promise<{ data: T }>;
}

export interface ApiPushOptions extends PushTarget {
  /** The job's checkout, whose commits `base..HEAD` are remade. */
  checkout: string;
  owner: string;
  repo: string;
  writer: GitDataWriter;
  /** The commit the job started from: GitHub has it (it came from GitHub). */
  base: string;
  /** The branch exists on GitHub (a pull request's head): moved with PATCH, fast-forward only; else created. */
  exists: boolean;
}

export interface ApiPushResult extends PushResult {
  /** Each local commit and the commit GitHub made of it (`sha` is GitHub's). */
  remade: Record<string, string>;
}

/** One entry of `POST /repos/{owner}/{repo}/git/trees`: `sha: null` deletes the path. */
export interface TreeEntry {
  path: string;
  mode: "100644" | "100755" | "120000" | "160000" | "040000";
  type: "blob" | "tree" | "commit";
  sha: string | null;
}

const inCheckout = (checkout: string): GitOptions => ({ cwd: checkout, workspace: true });

/** `git diff-tree -r -z --raw` of one commit against its parent: `:<old> <new> <oldsha> <newsha> <status>\0<path>\0`. */
async function changedEntries(checkout: string, parent: string, commit: string): Promise<{ oldMode: string; newMode: string; sha: string; path: string }[]> {
  const out = await git(["diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", "--raw", "--end-of-options", parent, commit, "--"], inCheckout(checkout));
  const parts = out.split("\0");
  const entries: { oldMode: string; newMode: string; sha: string; path: string }[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const match = /^:(\d{6}) (\d{6}) [0-9a-f]+ ([0-9a-f]+) [A-Z]\d*$/.exec(parts[i] ?? "");
    if (match) entries.push({ oldMode: match[1]!, newMode: match[2]!, sha: match[3]!, path: parts[i + 1]! });
  }
  return entries;
}

const MODES = new Set(["100644", "100755", "120000", "160000"]);

/**
 * The tree entries of one commit's changes, blobs uploaded as base64 (binary content and symlink
 * targets byte for byte); a deleted path is `sha: null`. Blobs already sent are not sent again.
 */
async function treeEntries(options: ApiPushOptions, parent: string, commit: string, blobs: Map<string, string>): Promise<TreeEntry[]> {
  const entries: TreeEntry[] = [];
  for (const change of await changedEntries(options.checkout, parent, commit)) {
    if (change.newMode === "000000") {
      const gitlink = change.oldMode === "160000";
      entries.push({ path: change.path, mode: gitlink ? "160000" : (MODES.has(change.oldMode) ? change.oldMode : "100644") as TreeEntry["mode"], type: gitlink ? "commit" : "blob", sha: null });
      continue;
    }
    if (!MODES.has(change.newMode)) throw new Error(`cannot send ${change.path} through the API: unknown file mode ${change.newMode}`);
    if (change.newMode === "160000") {
      entries.push({ path: change.path, mode: "160000", type: "commit", sha: change.sha });
      continue;
    }
    let sha = blobs.get(change.sha);
    if (sha === undefined) {
      const content = await gitBuffer(["cat-file", "blob", change.sha], { ...inCheckout(options.checkout), maxBuffer: 200 * 1024 * 1024 });
      const { data } = await options.writer.write<{ sha: string }>("POST /repos/{owner}/{repo}/git/blobs", {
        owner: options.owner,
        repo: options.repo,
        // The repository's bytes, as git push would send them: never redacted.
        content: PeoplesText.blob(content),
        encoding: "base64",
      });
      sha = data.sha;
      blobs.set(change.sha, sha);
    }
    entries.push({ path: change.path, mode: change.newMode as TreeEntry["mode"], type: "blob", sha });
  }
  return entries;
}

/**
 * Remakes each commit of `base..HEAD` (oldest first) on GitHub and points `branch` at the last:
 * per commit its changed files as blobs, a tree on the previous tree (`base_tree`), and a commit
 * with the same message and no author or committer (GitHub signs it); then the ref is created
 * (`POST …/git/refs`) or moved without force (`PATCH …/git/refs/heads/<branch>`). Nothing is
 * pushed with git. A ref update a branch rule refuses throws a BranchRuleError naming the rule.
 */
export async function pushViaApi(options: ApiPushOptions): Promise<ApiPushResult> {
  assertPushable(options);
  await validateBranch(options.branch);
  if (!SHA.test(options.base)) throw new Error(`base must be a commit id, not ${JSON.stringify(options.base)}`);
  const opts = inCheckout(options.checkout);
  const head = (await git(["rev-parse", "--verify", "HEAD^{commit}"], opts)).trim();
  if (head === options.base) return { pushed: false, sha: head, remade: {} };
  const commits = (await git(["rev-list", "--reverse", "--first-parent", "--end-of-options", `${options.base}..${head}`, "--"], opts)).split("\n").filter(Boolean);
  const { owner, repo, writer } = options;
  const blobs = new Map<string, string>();
  const remade: Record<string, string> = {};
  let parent = options.base;
  let remoteParent = options.base;
  // The base came from GitHub: its tree has the same id there.
  let baseTree = (await git(["rev-parse", "--verify", `${options.base}^{tree}`], opts)).trim();
  try {
    for (const commit of commits) {
      const entries = await treeEntries(options, parent, commit, blobs);
      let tree = baseTree;
      if (entries.length > 0) {
        ({ data: { sha: tree } } = await writer.write<{ sha: string }>("POST /repos/{owner}/{repo}/git/trees", { owner, repo, base_tree: baseTree, tree: entries }));
      }
      const message = (await git(["log", "-1", "--format=%B", "--end-of-options", commit, "--"], opts)).replace(/\n+$/, "\n");
      const { data } = await writer.write<{ sha: string }>("POST /repos/{owner}/{repo}/git/commits", { owner, repo, message, tree, parents: [remoteParent] });
      remade[commit] = data.sha;
      parent = commit;
      remoteParent = data.sha;
      baseTree = tree;
    }
    await moveRef(options, remoteParent);
  } catch (error) {
    throw explainRefError(error, options.branch);
  }
  return { pushed: true, sha: remoteParent, remade };
}

async function moveRef(options: ApiPushOptions, sha: string): Promise<void> {
  const { owner, repo, writer, branch } = options;
  if (options.exists) {
    await writer.write("PATCH /repos/{owner}/{repo}/git/refs/{ref}", { owner, repo, ref: `heads/${branch}`, sha, force: false });
  } else {
    await writer.write("POST /repos/{owner}/{repo}/git/refs", { owner, repo, ref: `refs/heads/${branch}`, sha });
  }
}

interface HttpErrorLike {
  status?: number;
  message?: string;
  response?: { data?: { message?: unknown; errors?: unknown[] } };
}

/** A refused ref update in words: the rule it broke and what to do, a branch that moved on, a missing permission. */
export function explainRefError(error: unknown, branch: string): Error {
  const e = (error ?? {}) as HttpErrorLike;
  if (e.status === undefined) return error as Error;
  const data = e.response?.data;
  const message = typeof data?.message === "string" ? data.message : (e.message ?? "");
  const rules = rulesFromApiError(message, Array.isArray(data?.errors) ? data.errors : []);
  if (rules) {
    const advice = adviceFor(rules, branch);
    return new BranchRuleError(`updating ${branch} was refused by a branch rule (HTTP ${e.status}): ${quoteRules(rules)}; ${advice}`, rules, advice);
  }
  if (/not a fast.forward/i.test(message)) return new Error(`updating ${branch} was rejected: the branch has commits crewbot does not have (crewbot never force-pushes)`);
  if (/Reference already exists/i.test(message)) return new Error(`creating ${branch} failed: a branch of that name appeared on GitHub meanwhile`);
  if (/rate limit/i.test(message)) return new Error(`updating ${branch} failed: GitHub's rate limit held the writes back too long (${message.split(" - ")[0]})`);
  if (e.status === 403 || e.status === 404) {
    return new Error(`updating ${branch} failed (HTTP ${e.status}: ${message.split(" - ")[0]}); does the app have contents: write on this repository (and workflows, for .github/workflows)?`);
  }
  return error as Error;
}
