import type Anthropic from "@anthropic-ai/sdk";
import type { ReviewStore } from "../queue/review-store.js";
import type { PermissionCache } from "../github/permission-cache.js";
import type { InstallationOctokit } from "../github/types.js";
import type { GitHubWriter, ReportLog } from "../report/github-writer.js";
import type { SandboxInfo } from "../tools/types.js";
import type { GitIdentity } from "../workspace/commit.js";
import type { MirrorStore } from "../workspace/mirror.js";

/** What a job needs from the world; main.ts builds the real ones, tests their stand-ins. */
export interface JobServices {
  /** An Octokit authenticated as the installation (`probot.auth(id)`). */
  octokitFor(installationId: number): Promise<InstallationOctokit>;
  /** A fresh installation token for git, given to git as a header only. */
  tokenFor(octokit: InstallationOctokit): Promise<string>;
  /** The one writer of an installation: its writes are spaced and redacted together. */
  writerFor(installationId: number, octokit: InstallationOctokit, secrets?: string[]): GitHubWriter;
  /** The model client; throws with a plain reason when it cannot be made (no API key). */
  anthropic(): Anthropic;
  sandbox(): Promise<SandboxInfo>;
  mirrors: MirrorStore;
  dataDir: string;
  /** `CREWBOT_PUBLIC_URL`, for transcript links. */
  publicUrl: string;
  /** Commenters' permissions, remembered briefly; shared with the triggers, which just asked. */
  permissions: PermissionCache;
  /** Per pull request: the last reviewed head and the findings posted so far. */
  reviews: ReviewStore;
  /** Author and committer of crewbot's commits (the app's bot user). */
  botIdentity(octokit: InstallationOctokit): Promise<GitIdentity>;
  log: ReportLog & { info(message: string): void };
}
