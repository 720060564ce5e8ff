import type { InstallationOctokit } from "./types.js";
import { permissionOf } from "./permission.js";

/**
 * The commenters' permissions, remembered briefly: a busy thread asks GitHub once per person per
 * TTL instead of on every comment, which keeps the webhook answer fast and the rate limit spared.
 * A revoked permission therefore takes up to the TTL to bite — short on purpose.
 */
export class PermissionCache {
  private readonly entries = new Map<string, { permission: string; until: number }>();
  /** Lookups under way: comments arriving together ask GitHub once. */
  private readonly pending = new Map<string, Promise<string>>();

  constructor(
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  async get(octokit: InstallationOctokit, owner: string, repo: string, username: string): Promise<string> {
    const key = `${owner}/${repo}/${username}`.toLowerCase();
    const hit = this.entries.get(key);
    if (hit && hit.until > this.now()) return hit.permission;
    const asked = this.pending.get(key);
    if (asked) return asked;
    const lookup = permissionOf(octokit, owner, repo, username)
      .then((permission) => {
        if (this.entries.size >= this.maxEntries) this.entries.clear();
        this.entries.set(key, { permission, until: this.now() + this.ttlMs });
        return permission;
      })
      .finally(() => this.pending.delete(key));
    this.pending.set(key, lookup);
    return lookup;
  }
}
