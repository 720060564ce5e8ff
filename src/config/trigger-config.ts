/**
 * A repository's config as the triggers read it before any job exists (the label names of
 * `triggers.labels`, `triggers.mention`, `implement.ciFix.branches`, `review.auto`, …): one typed
 * read, each trigger taking the fields it decides on. Labels are added, people mentioned, suites
 * failed and PRs pushed all the time for reasons of their own, so the answer is remembered briefly
 * per repository rather than read for every event; a config that cannot be read gives the
 * defaults, and the job such an event starts then answers with the config's problem.
 */
import type { InstallationOctokit } from "../github/types.js";
import { loadRepoConfig } from "./load.js";
import { DEFAULT_CONFIG, type CrewbotConfig } from "./schema.js";

/**
 * The repository's parsed config, remembered briefly; shared between callers, so read-only.
 * `fresh`: read now (and remembered anew), for a decision that must see a change at once.
 */
export type RepoConfigRead = (octokit: InstallationOctokit, owner: string, repo: string, options?: { fresh?: boolean }) => Promise<CrewbotConfig>;

const REMEMBER_MS = 60_000;
/** A bound on the memory of many repositories: past it, everything is read again. */
const MAX_REPOSITORIES = 10_000;

export class TriggerConfigCache {
  private readonly known = new Map<string, { at: number; config: Promise<CrewbotConfig> }>();

  constructor(
    private readonly log: { warn(message: string): void },
    private readonly now: () => number = Date.now,
  ) {}

  /** One read per repository (any case) a minute, unless `fresh`; reads at the same time share it. */
  readonly repoConfig: RepoConfigRead = (octokit, owner, repo, options) => {
    const key = `${owner}/${repo}`.toLowerCase();
    const hit = this.known.get(key);
    if (hit && !options?.fresh && this.now() - hit.at < REMEMBER_MS) return hit.config;
    const config = loadRepoConfig(octokit, { owner, repo }).then(
      ({ config }) => config,
      (error: Error) => {
        this.log.warn(`${owner}/${repo}: config not read for the triggers (${error.message.split("\n")[0]}); the defaults apply`);
        return DEFAULT_CONFIG;
      },
    );
    if (this.known.size > MAX_REPOSITORIES) this.known.clear();
    this.known.set(key, { at: this.now(), config });
    return config;
  };
}
