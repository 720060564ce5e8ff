import type { ProbotOctokit } from "probot";

/** An Octokit authenticated as one installation (what `probot.auth(id)` and `context.octokit` give). */
export type InstallationOctokit = InstanceType<typeof ProbotOctokit>;

export const WRITE_PERMISSIONS = new Set(["admin", "maintain", "write"]);

/**
 * The user's permission on the repository (`admin`, `maintain`, `write`, `triage`, `read`,
 * `none`). A 404 (not a collaborator, or a deleted user) is `none`.
 */
export async function permissionOf(octokit: InstallationOctokit, owner: string, repo: string, username: string): Promise<string> {
  try {
    const { data } = await octokit.request("GET /repos/{owner}/{repo}/collaborators/{username}/permission", {
      owner,
      repo,
      username,
    });
    // `role_name` knows maintain/triage; `permission` folds them into write/read.
    return (data as { role_name?: string }).role_name || data.permission;
  } catch (error) {
    if ((error as { status?: number }).status === 404) return "none";
    throw error;
  }
}

export const canWrite = (permission: string) => WRITE_PERMISSIONS.has(permission);
