/** The only way crewbot's commits leave a checkout: a fast-forward push of a crewbot branch. */
import { git, GitError, REMOTE_PROTOCOLS } from "./git.js";
import { BRANCH_PREFIX, validateBranch, validateCloneUrl } from "./refs.js";
import { pushRuleError } from "./branch-rules.js";

/**
 * Gives a currently valid installation token; called right before every network command.
 * `renew`: GitHub refused the last one (401), so a newly minted one is wanted, not the cached one.
 */
export type TokenProvider = (options?: { renew?: boolean }) => Promise<string>;

/** git's words for an HTTP 401: the token itself was refused (expired or revoked), not a permission. */
const TOKEN_REFUSED = /Authentication failed|could not read Username|Invalid username or password|returned error: 401\b/i;

/** Thrown when GitHub refused the installation token, and the newly minted one too. */
export class TokenRefusedError extends GitError {
  override name = "TokenRefusedError";
}

/**
 * Runs a network git command with the provider's token; when GitHub answers 401 it runs once
 * more with a newly minted token. A second 401 is a TokenRefusedError that says so.
 */
async function withToken<T>(token: TokenProvider, what: string, run: (token: string) => Promise<T>): Promise<T> {
  try {
    return await run(await token());
  } catch (error) {
    if (!(error instanceof GitError) || !TOKEN_REFUSED.test(error.stderr)) throw error;
  }
  try {
    return await run(await token({ renew: true }));
  } catch (error) {
    if (!(error instanceof GitError) || !TOKEN_REFUSED.test(error.stderr)) throw error;
    const refused = new TokenRefusedError(
      `${what} failed: GitHub refused the installation token, and a newly minted one too (401): the token was revoked or the app lost access to this repository`,
    );
    refused.stderr = error.stderr;
    throw refused;
  }
}

/**
 * Local config keys that could send the token elsewhere or change what a push does: URL
 * rewrites (`url.*.insteadOf`), `http.*` (proxy, TLS, extra headers), includes of other files.
 * crewbot never writes them and the sandbox cannot; finding one means tampering.
 */
const UNSAFE_LOCAL_CONFIG = /^(url\.|http\.|include\.|includeif\.|credential\.|push\.|remote\.[^\n]*\.(pushurl|receivepack|uploadpack|proxy)$)/i;

/** Refuses to use the token from a checkout whose own config names any UNSAFE_LOCAL_CONFIG key. */
export async function assertSafeLocalConfig(checkout: string): Promise<void> {
  const keys = await git(["config", "--local", "--name-only", "--list"], { cwd: checkout, workspace: true }).catch(() => "");
  const bad = keys.split("\n").filter((key) => UNSAFE_LOCAL_CONFIG.test(key));
  if (bad.length > 0) throw new GitError(`refusing to use the installation token: the checkout's git config sets ${[...new Set(bad)].join(", ")}`);
}

export interface RemoteOptions {
  /** The checkout the command runs in (its own config is checked first). */
  checkout: string;
  /** The public clone URL (`repository.clone_url`), without credentials. */
  cloneUrl: string;
  token: TokenProvider;
  timeoutMs?: number;
}

/** Every branch of the remote (names without `refs/heads/`), asked over the network with the token. */
export async function listRemoteBranches({ checkout, cloneUrl, token, timeoutMs = 5 * 60_000 }: RemoteOptions): Promise<string[]> {
  const url = validateCloneUrl(cloneUrl).href;
  await assertSafeLocalConfig(checkout);
  const out = await withToken(token, "listing the repository's branches", (value) =>
    git(["ls-remote", "--heads", "--", url], { cwd: checkout, token: value, config: REMOTE_PROTOCOLS, timeoutMs }),
  );
  return out
    .split("\n")
    .map((line) => line.split("\t")[1] ?? "")
    .filter((ref) => ref.startsWith("refs/heads/"))
    .map((ref) => ref.slice("refs/heads/".length));
}

export { BRANCH_PREFIX };

export interface PushTarget {
  branch: string;
  /** The repository's default branch: never pushed to, whatever else is said. */
  defaultBranch: string;
  /** For `/implement` on a PR: the PR's own head branch (same repository), which may be pushed to. */
  prHeadBranch?: string;
}

/**
 * Throws unless `branch` is one crewbot may push to: never the default branch; otherwise a
 * `crewbot/…` branch or the PR's own head branch given explicitly. Pure — runs before any git command.
 */
export function assertPushable({ branch, defaultBranch, prHeadBranch }: PushTarget): void {
  if (!branch || !defaultBranch) throw new Error("refusing to push: branch and default branch must be named");
  if (branch.startsWith("refs/")) throw new Error(`refusing to push to ${JSON.stringify(branch)}: give a branch name, not a ref`);
  if (branch === defaultBranch) throw new Error(`refusing to push to the default branch ${JSON.stringify(branch)}`);
  if (!branch.startsWith(BRANCH_PREFIX) && branch !== prHeadBranch) {
    throw new Error(`refusing to push to ${JSON.stringify(branch)}: crewbot pushes only to ${BRANCH_PREFIX}… branches or the pull request's own head branch`);
  }
}

export interface PushOptions extends RemoteOptions, PushTarget {
  /** When HEAD is still this commit (nothing committed yet), nothing is pushed. */
  base?: string;
}

export interface PushResult {
  /** False when HEAD was still `base`: there was nothing to push. */
  pushed: boolean;
  /** The commit the branch now points at on the remote (HEAD of the checkout). */
  sha: string;
}

/**
 * Pushes the checkout's HEAD — what is committed, never the working tree — to `branch` on the
 * remote as a fast-forward (no `+`, no `--force`: a branch that moved on is an error, not
 * overwritten). The token is fetched from `token()` right before the push and reaches git only
 * as a header. Use it after every step, and after a failure to keep the partial work.
 */
export async function pushBranch(options: PushOptions): Promise<PushResult> {
  assertPushable(options);
  const url = validateCloneUrl(options.cloneUrl).href;
  await validateBranch(options.branch);
  const { checkout, branch, timeoutMs = 10 * 60_000 } = options;
  const sha = (await git(["rev-parse", "--verify", "HEAD^{commit}"], { cwd: checkout, workspace: true })).trim();
  if (options.base !== undefined && sha === options.base) return { pushed: false, sha };
  await assertSafeLocalConfig(checkout);
  const args = ["push", "--quiet", "--no-follow-tags", "--no-signed", "--recurse-submodules=no", "--no-verify"];
  try {
    await withToken(options.token, `pushing to ${branch}`, (token) =>
      git([...args, "--", url, `${sha}:refs/heads/${branch}`], { cwd: checkout, token, config: REMOTE_PROTOCOLS, timeoutMs }),
    );
  } catch (error) {
    throw explainPush(error, branch);
  }
  return { pushed: true, sha };
}

function explainPush(error: unknown, branch: string): Error {
  if (!(error instanceof GitError) || error instanceof TokenRefusedError) return error as Error;
  const ruled = pushRuleError(error, branch); // GH006 / GH013: the rule named, and what to do
  if (ruled) return ruled;
  let message: string | undefined;
  if (/non-fast-forward|\[rejected\]|fetch first/i.test(error.stderr)) {
    message = `pushing to ${branch} was rejected: the branch has commits crewbot does not have (crewbot never force-pushes)`;
  } else if (/\b403\b|Permission to .* denied/i.test(error.stderr)) {
    message = `pushing to ${branch} was refused (403): the app's token may not write here (does the app have contents: write on this repository?)`;
  } else if (/workflow/i.test(error.stderr) && /refusing|permission/i.test(error.stderr)) {
    message = `pushing to ${branch} was refused: the app may not change .github/workflows without the workflows permission`;
  }
  if (message === undefined) return error;
  const failure = new GitError(message);
  failure.stderr = error.stderr;
  return failure;
}
