import type Anthropic from "@anthropic-ai/sdk";
import type { OperatorLimits } from "../installations/limits.js";
import type { Metrics } from "../metrics/metrics.js";
import type { UsageLedger } from "../installations/types.js";
import type { CiFixRounds } from "./ci-fix-rounds.js";
import type { ReviewStore } from "../review/review-store.js";
import type { TranscriptRecorder } from "../transcripts/recorder.js";
import type { PermissionCache } from "../github/permission-cache.js";
import type { InstallationOctokit } from "../github/types.js";
import type { GitHubWriter, ReportLog } from "../report/github-writer.js";
import type { SandboxInfo } from "../tools/types.js";
import type { GitIdentity } from "../github/types.js";
import type { MirrorStore } from "../workspace/mirror.js";
import type { LearningsStore, LearnRequest } from "../learnings/types.js";
import type { RegistrySettings } from "../dependencies/types.js";

/** What a job needs from the world; main.ts builds the real ones, tests their stand-ins. */
export interface JobServices {
  /** An Octokit authenticated as the installation (`probot.auth(id)`). */
  octokitFor(installationId: number): Promise<InstallationOctokit>;
  /** The installation token for git (a header only): one with 10+ minutes left, or new with `renew`. */
  tokenFor(octokit: InstallationOctokit, options?: { renew?: boolean }): Promise<string>;
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
  /** Prometheus counters of this process. */
  metrics: Metrics;
  /** The operator's per-installation limits, and what each installation's jobs used. */
  limits: OperatorLimits;
  usage: UsageLedger;
  /** Per pull request: the last reviewed head and the findings posted so far. */
  reviews: ReviewStore;
  /** Learning candidates and the merged learnings' uses, per repository (the queue's store); absent in stand-ins without learnings. */
  learnings?: LearningsStore;
  /** Queues the job that opens or updates the learnings pull request (a candidate became due). */
  proposeLearnings?(request: LearnRequest): Promise<void>;
  /** The operator's npm registry (`CREWBOT_NPM_REGISTRY`, `CREWBOT_NPM_TOKEN`) the dependency review reads; absent: no dependency review. */
  npmRegistry?: RegistrySettings;
  /** Automatic ci-fix rounds per pull request, shared by every worker (the queue's store). */
  ciFixRounds?: CiFixRounds;
  /** Records the job's events as its transcript (redacted); absent in tests that do not need it. */
  transcripts?: TranscriptRecorder;
  /** Author and committer of crewbot's commits (the app's bot user). */
  botIdentity(octokit: InstallationOctokit): Promise<GitIdentity>;
  /** The app's id (`APP_ID`): crewbot's own check runs are told apart by it (and GitHub's check-run lists narrowed to them), never by a name. */
  appId?: number;
  /** The app's slug (its bot is `<slug>[bot]`), when known without asking GitHub for the bot user. */
  appSlug?: () => Promise<string>;
  log: ReportLog & { info(message: string): void };
  /** `users.noreply.github.com`, or `users.noreply.<GHE_HOST>`: the requester's co-author address. */
  noreplyDomain?: string;
}

/**
 * crewbot's own check runs, by the app's id (`APP_ID`); only where that is unknown by its slug.
 * Never by `CREWBOT_BOT_NAME`, the commits' display name: another app named so is not crewbot.
 */
export async function ownCheckApps(services: Pick<JobServices, "appId" | "appSlug">): Promise<{ ids?: number[]; slugs?: string[] }> {
  if (services.appId !== undefined) return { ids: [services.appId] };
  return services.appSlug ? { slugs: [await services.appSlug()] } : {};
}
