import type Anthropic from "@anthropic-ai/sdk";
import type { OperatorLimits } from "../installations/limits.js";
import type { Metrics } from "../metrics/metrics.js";
import type { UsageLedger } from "../installations/types.js";
import type { InsightsStore } from "../insights/events.js";
import type { PauseStore } from "../review/pauses.js";
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
import type { McpServerConfig } from "../mcp/config.js";

/** GitHub as the app sees it: installation clients and tokens, the one writer, and who crewbot is there. */
export interface GitHubPort {
  /** An Octokit authenticated as the installation (`probot.auth(id)`). */
  octokitFor(installationId: number): Promise<InstallationOctokit>;
  /** The installation token for git (a header only): one with 10+ minutes left, or new with `renew`. */
  tokenFor(octokit: InstallationOctokit, options?: { renew?: boolean }): Promise<string>;
  /** The one writer of an installation: its writes are spaced and redacted together. */
  writerFor(installationId: number, octokit: InstallationOctokit, secrets?: string[]): GitHubWriter;
  /** Author and committer of crewbot's commits (the app's bot user). */
  botIdentity(octokit: InstallationOctokit): Promise<GitIdentity>;
  /** Commenters' permissions, remembered briefly; shared with the triggers, which just asked. */
  permissions: PermissionCache;
  /**
   * The app's id (`APP_ID`): crewbot's own check runs are told apart by it (and GitHub's check-run lists
   * narrowed to them), never by a name. Absent when `APP_ID` is not a number: then by the slug.
   */
  appId?: number;
  /** The app's slug (its bot is `<slug>[bot]`): `CREWBOT_APP_SLUG`, or asked of GitHub once. */
  appSlug(): Promise<string>;
  /** `users.noreply.github.com`, or `users.noreply.<GHE_HOST>`: the requester's co-author address. */
  noreplyDomain: string;
}

/** Where the agents run: the model client, the sandbox, the repositories' mirrors and the job folders. */
export interface RuntimePort {
  /** The model client; throws with a plain reason when it cannot be made (no API key). */
  anthropic(): Anthropic;
  /** The sandbox probed at start: whether commands run confined, and how. */
  sandbox(): Promise<SandboxInfo>;
  mirrors: MirrorStore;
  dataDir: string;
  /**
   * The npm registry the dependency review reads (`CREWBOT_NPM_REGISTRY`, `CREWBOT_NPM_TOKEN`; compose.ts
   * gives the public one when the operator sets none). Optional: without one there is no dependency review.
   */
  npmRegistry?: RegistrySettings;
  /** The cheaper model of a review's first look (`CREWBOT_FIRST_LOOK_MODEL`); none: no first look, and one look runs on the reviewer's model. */
  firstLookModel?: string;
  /** The operator's remote MCP servers (`CREWBOT_MCP_CONFIG`, read at start); none: no MCP tools. */
  mcpServers?: readonly McpServerConfig[];
}

/** What jobs remember between runs, in the queue's store. */
export interface RecordsPort {
  /** Per pull request: the last reviewed head and the findings posted so far. */
  reviews: ReviewStore;
  /** Learning candidates and the merged learnings' uses, per repository. */
  learnings: LearningsStore;
  /** Automatic ci-fix rounds per pull request, shared by every worker. */
  ciFixRounds: CiFixRounds;
  /** Pull requests a writer paused: no automatic review, summary or ci-fix round there. */
  pauses: PauseStore;
  /** What a repository's figures are computed from: jobs ended, reviews posted, pull requests' finding ends. None: nothing kept. */
  insights?: InsightsStore;
  /** Queues the job that opens or updates the learnings pull request (a candidate became due). */
  proposeLearnings(request: LearnRequest): Promise<void>;
}

/** What the operator set and pays for: the per-installation limits, the usage ledger, the public address. */
export interface OperatorPort {
  /** The operator's per-installation limits. */
  limits: OperatorLimits;
  /** What each installation's jobs used. */
  usage: UsageLedger;
  /** `CREWBOT_PUBLIC_URL`, for transcript links. */
  publicUrl: string;
}

/** What the operator sees of a job: log lines, this process's counters, the job's transcript. */
export interface ObservePort {
  log: ReportLog & { info(message: string): void };
  /** Prometheus counters of this process. */
  metrics: Metrics;
  /** Records the job's events as its transcript (redacted). */
  transcripts: TranscriptRecorder;
}

/** What a job needs from the world, by port; compose.ts builds the real ones, tests `stubServices`. */
export interface JobServices {
  github: GitHubPort;
  runtime: RuntimePort;
  records: RecordsPort;
  operator: OperatorPort;
  observe: ObservePort;
}

/**
 * crewbot's own check runs, by the app's id (`APP_ID`); only where that is unknown by its slug.
 * Never by `CREWBOT_BOT_NAME`, the commits' display name: another app named so is not crewbot.
 */
export async function ownCheckApps(github: Pick<GitHubPort, "appId" | "appSlug">): Promise<{ ids?: number[]; slugs?: string[] }> {
  if (github.appId !== undefined) return { ids: [github.appId] };
  return { slugs: [await github.appSlug()] };
}
