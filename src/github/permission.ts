import type { InstallationOctokit } from "./types.js";

/** Who may do what: GitHub's answer for one person on one repository, and what it allows. */
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
    return effectivePermission(data as PermissionAnswer);
  } catch (error) {
    if ((error as { status?: number }).status === 404) return "none";
    throw error;
  }
}

/** GitHub's own roles; any other `role_name` is an organisation's custom role. */
const BASE_ROLES = new Set(["admin", "maintain", "write", "triage", "read", "none"]);

interface PermissionAnswer {
  /** `admin`, `write`, `read` or `none`: maintain folded into write, triage into read, a custom role into its base. */
  permission?: string;
  /** `admin`, `maintain`, `write`, `triage`, `read`, or the name of a custom role (`deployer`). */
  role_name?: string;
}

/**
 * Pure: the permission of GitHub's answer. `role_name` when it is one of GitHub's roles (it tells
 * maintain and triage apart); for a custom role, the `permission` it grants — its name says nothing.
 */
export function effectivePermission(answer: PermissionAnswer): string {
  const role = answer.role_name?.toLowerCase();
  if (role && BASE_ROLES.has(role)) return role;
  return answer.permission?.toLowerCase() || "none";
}

export const canWrite = (permission: string) => WRITE_PERMISSIONS.has(permission);
