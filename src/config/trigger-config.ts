/**
 * The parts of a repository's config that triggers decide on before any job exists: the label
 * names of `triggers.labels`, `triggers.mention`, and `implement.ciFix.branches` (which other
 * bots' branches a failed check suite starts a ci-fix on). Labels are added, people mentioned and
 * suites failed all the time for reasons of their own, so the answer is remembered briefly per
 * repository rather than read for every event; a config that cannot be read gives the defaults,
 * and the job such an event starts then answers with the config's problem.
 */
import type { InstallationOctokit } from "../github/types.js";
import { loadRepoConfig } from "./load.js";
import { DEFAULT_CONFIG, type CrewbotConfig } from "./schema.js";

export type LabelNames = { plan: string; implement: string };

/** What the triggers read of a repository's config. */
interface TriggerConfig {
  triggers: CrewbotConfig["triggers"];
  ciFixBranches: readonly string[];
}

const REMEMBER_MS = 60_000;

const pick = (config: CrewbotConfig): TriggerConfig => ({ triggers: config.triggers, ciFixBranches: config.implement.ciFix.branches });

export class TriggerConfigCache {
  private readonly known = new Map<string, { at: number; config: Promise<TriggerConfig> }>();

  constructor(
    private readonly log: { warn(message: string): void },
    private readonly now: () => number = Date.now,
  ) {}

  async get(octokit: InstallationOctokit, owner: string, repo: string): Promise<LabelNames> {
    return (await this.config(octokit, owner, repo)).triggers.labels;
  }

  /** `triggers.mention`: whether a mention of the app at the start of a comment is a command. */
  async mentions(octokit: InstallationOctokit, owner: string, repo: string): Promise<boolean> {
    return (await this.config(octokit, owner, repo)).triggers.mention;
  }

  /** `implement.ciFix.branches`: the globs of other bots' branches a failed check suite starts a ci-fix on. */
  async ciFixBranches(octokit: InstallationOctokit, owner: string, repo: string): Promise<readonly string[]> {
    return (await this.config(octokit, owner, repo)).ciFixBranches;
  }

  private config(octokit: InstallationOctokit, owner: string, repo: string): Promise<TriggerConfig> {
    const key = `${owner}/${repo}`.toLowerCase();
    const hit = this.known.get(key);
    if (hit && this.now() - hit.at < REMEMBER_MS) return hit.config;
    const config = loadRepoConfig(octokit, { owner, repo }).then(
      ({ config }) => pick(config),
      (error: Error) => {
        this.log.warn(`${owner}/${repo}: config not read for the label, mention and check-suite triggers (${error.message.split("\n")[0]}); the defaults apply`);
        return pick(DEFAULT_CONFIG);
      },
    );
    if (this.known.size > 10_000) this.known.clear();
    this.known.set(key, { at: this.now(), config });
    return config;
  }
}
