import type { ProbotOctokit } from "probot";

/** An Octokit authenticated as one installation (what `probot.auth(id)` and `context.octokit` give). */
export type InstallationOctokit = InstanceType<typeof ProbotOctokit>;

/** Who a commit is by (or co-authored by): a name and an email git and GitHub attribute. */
export interface GitIdentity {
  name: string;
  email: string;
}

/** The pull request as `GET /repos/{o}/{r}/pulls/{n}` gives it. */
export interface PullData {
  number: number;
  state: string;
  title: string;
  body?: string | null;
  user: { login: string } | null;
  head: { ref: string; sha: string; repo: { full_name: string } | null };
  base: { repo: { full_name: string } };
}

/** A pull request as a `check_suite` or `check_run` payload lists it: only ids, for telling forks apart. */
export interface PullRef {
  number: number;
  head: { ref: string; sha: string; repo: { id: number } };
  base: { repo: { id: number } };
}
