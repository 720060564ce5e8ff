import type { CrewbotConfig } from "../config/schema.js";
import type { InstallationOctokit } from "../github/types.js";
import type { JobContext } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import type { GitHubWriter } from "../report/github-writer.js";
import type { JobServices } from "./services.js";

/** What a job on a pull request holds once its token is minted: the job, its GitHub client and writer, the repository's config. */
export interface PullRequestRun {
  job: JobRecord;
  ctx: JobContext;
  services: JobServices;
  octokit: InstallationOctokit;
  token: string;
  writer: GitHubWriter;
  config: CrewbotConfig;
}
