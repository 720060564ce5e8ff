import type { ProbotOctokit } from "probot";

/** An Octokit authenticated as one installation (what `probot.auth(id)` and `context.octokit` give). */
export type InstallationOctokit = InstanceType<typeof ProbotOctokit>;
