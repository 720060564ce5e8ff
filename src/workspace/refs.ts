/** Names and refs that arrive in webhooks, checked before they reach a path or git's argv. */
import { git, GitError } from "./git.js";

/** Prefix of every branch crewbot creates; crewbot pushes to no other branch but a PR's own head. */
export const BRANCH_PREFIX = "crewbot/";

/** GitHub owner and repository names: letters, digits, `.`, `_`, `-`; never `.` or `..`. */
export const NAME = /^[A-Za-z0-9._-]{1,100}$/;

export function validateRepoName(owner: string, repo: string): void {
  for (const [what, name] of [
    ["owner", owner],
    ["repository", repo],
  ] as const) {
    // Owners never start with a dot on GitHub; mirror dirs use that for `.trash-` (repos may: `.github`).
    if (!NAME.test(name) || name === "." || name === ".." || name.endsWith(".lock") || (what === "owner" && name.startsWith("."))) {
      throw new Error(`invalid ${what} name ${JSON.stringify(name)}`);
    }
  }
}

/** An http(s) clone URL without credentials: a token belongs in the header, never in a URL. */
export function validateCloneUrl(cloneUrl: string): URL {
  let url: URL;
  try {
    url = new URL(cloneUrl);
  } catch {
    throw new Error(`invalid clone URL ${JSON.stringify(cloneUrl)}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`clone URL must be http(s): ${url.protocol}`);
  if (url.username || url.password) throw new Error("clone URL must not carry credentials");
  return url;
}

export const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const PULL = /^refs\/pull\/[1-9][0-9]{0,9}\/head$/;

/** A branch name as git accepts it, and never one that git could read as an option. */
export async function validateBranch(name: string): Promise<void> {
  // `HEAD` passes check-ref-format as refs/heads/HEAD, but a branch of that name only confuses git and readers.
  if (!name || name.startsWith("-") || name.startsWith("refs/") || name === "HEAD") throw new Error(`invalid branch name ${JSON.stringify(name)}`);
  await git(["check-ref-format", `refs/heads/${name}`], { cwd: "/", workspace: true }).catch(() => {
    throw new Error(`invalid branch name ${JSON.stringify(name)}`);
  });
}

/** The commit `ref` names in `mirror`, looked up as exactly one kind of ref (no DWIM guessing). */
export async function resolveRef(mirror: string, ref: string): Promise<string> {
  let full: string;
  if (SHA.test(ref) || PULL.test(ref)) full = ref;
  else {
    await validateBranch(ref);
    full = `refs/heads/${ref}`;
  }
  try {
    return (await git(["rev-parse", "--verify", "--quiet", `${full}^{commit}`], { cwd: mirror, workspace: true })).trim();
  } catch {
    throw new GitError(`${ref} is not a commit of this repository`);
  }
}

