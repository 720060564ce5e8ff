/**
 * The label names of a repository's `triggers.labels`, for the label trigger. Labels are added
 * all the time for reasons of their own, so the answer is remembered briefly per repository
 * rather than read for every label; a config that cannot be read gives the defaults, and the job
 * such a label starts then answers with the config's problem.
 */
import type { InstallationOctokit } from "../github/types.js";
import { loadRepoConfig } from "./load.js";
import { DEFAULT_CONFIG } from "./schema.js";

export type LabelNames = { plan: string; implement: string };

const REMEMBER_MS = 60_000;

export class LabelTriggers {
  private readonly known = new Map<string, { at: number; names: Promise<LabelNames> }>();

  constructor(
    private readonly log: { warn(message: string): void },
    private readonly now: () => number = Date.now,
  ) {}

  get(octokit: InstallationOctokit, owner: string, repo: string): Promise<LabelNames> {
    const key = `${owner}/${repo}`.toLowerCase();
    const hit = this.known.get(key);
    if (hit && this.now() - hit.at < REMEMBER_MS) return hit.names;
    const names = loadRepoConfig(octokit, { owner, repo }).then(
      ({ config }) => config.triggers.labels,
      (error: Error) => {
        this.log.warn(`${owner}/${repo}: config not read for the label trigger (${error.message.split("\n")[0]}); the default label names apply`);
        return DEFAULT_CONFIG.triggers.labels;
      },
    );
    if (this.known.size > 10_000) this.known.clear();
    this.known.set(key, { at: this.now(), names });
    return names;
  }
}
