/**
 * A repository's `triggers` (the label names of `triggers.labels`, `triggers.mention`), for the
 * label and comment triggers. Labels are added and people mentioned all the time for reasons of
 * their own, so the answer is remembered briefly per repository rather than read for every event;
 * a config that cannot be read gives the defaults, and the job such an event starts then answers
 * with the config's problem.
 */
import type { InstallationOctokit } from "../github/types.js";
import { loadRepoConfig } from "./load.js";
import { DEFAULT_CONFIG, type CrewbotConfig } from "./schema.js";

export type LabelNames = { plan: string; implement: string };

const REMEMBER_MS = 60_000;

export class LabelTriggers {
  private readonly known = new Map<string, { at: number; triggers: Promise<CrewbotConfig["triggers"]> }>();

  constructor(
    private readonly log: { warn(message: string): void },
    private readonly now: () => number = Date.now,
  ) {}

  async get(octokit: InstallationOctokit, owner: string, repo: string): Promise<LabelNames> {
    return (await this.triggers(octokit, owner, repo)).labels;
  }

  /** `triggers.mention`: whether a mention of the app at the start of a comment is a command. */
  async mentions(octokit: InstallationOctokit, owner: string, repo: string): Promise<boolean> {
    return (await this.triggers(octokit, owner, repo)).mention;
  }

  private triggers(octokit: InstallationOctokit, owner: string, repo: string): Promise<CrewbotConfig["triggers"]> {
    const key = `${owner}/${repo}`.toLowerCase();
    const hit = this.known.get(key);
    if (hit && this.now() - hit.at < REMEMBER_MS) return hit.triggers;
    const triggers = loadRepoConfig(octokit, { owner, repo }).then(
      ({ config }) => config.triggers,
      (error: Error) => {
        this.log.warn(`${owner}/${repo}: config not read for the label and mention triggers (${error.message.split("\n")[0]}); the defaults apply`);
        return DEFAULT_CONFIG.triggers;
      },
    );
    if (this.known.size > 10_000) this.known.clear();
    this.known.set(key, { at: this.now(), triggers });
    return triggers;
  }
}
