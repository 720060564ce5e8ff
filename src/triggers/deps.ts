import type { Logger } from "probot";
import type { RepoConfigRead } from "../config/trigger-config.js";
import type { PermissionCache } from "../github/permission-cache.js";
import type { InstallationOctokit } from "../github/types.js";
import type { InstallationPayload } from "../installations/events.js";
import type { NewJob } from "../queue/types.js";
import type { PullRequestEnd } from "../jobs/pull-request-end.js";
import type { AdmissionGate } from "./admission.js";
import type { CommentPayload, Decision } from "./comment-command.js";
import { mayMention } from "./parse-mention.js";

/** pino's logger (Probot's `app.log`): takes an object with ids first, or a plain message. */
export type TriggerLog = Pick<Logger, "debug" | "info" | "warn" | "error">;

/** What the thin handlers call; `act` carries a decision out (see carry-out.ts). */
export interface TriggerDeps {
  log: TriggerLog;
  permissions: Pick<PermissionCache, "get">;
  /** The app's slug: its comments are by `<slug>[bot]`. */
  appSlug(): Promise<string>;
  /** The app's id (`APP_ID`), when known: its own check suites never start a ci-fix. */
  appId?: number;
  /** `writer`: the person the decision answers has write permission (always answered; anyone else once an hour per issue). */
  act(decision: Decision, octokit: InstallationOctokit, payload: CommentPayload, writer: boolean): Promise<void>;
  /** Records an installation event; an uninstall or a removed repository cancels the jobs queued there. */
  installationEvent(event: "installation" | "installation_repositories", payload: InstallationPayload): Promise<void>;
  /** Redelivered webhooks and the per-person rate limit, decided before any request (in memory, or shared on Redis). */
  admission: AdmissionGate;
  /**
   * Why the installation no longer covers the repository (uninstalled, suspended, the repository
   * removed), from crewbot's local record of installation events; undefined when it does.
   */
  coverage(installationId: number, repository: { id?: number; fullName: string }): Promise<string | undefined>;
  /**
   * The repository's config, typed, remembered briefly (config/trigger-config.ts); the defaults
   * when it cannot be read (the job such an event starts then says why). Each trigger reads the
   * fields it decides on: `triggers.labels`, `triggers.mention`, `implement.ciFix.branches`, `review.auto`.
   */
  repoConfig: RepoConfigRead;
  /** Stores a job made without a comment (an automatic review) and wakes the runner. */
  enqueue(job: NewJob, octokit: InstallationOctokit): Promise<void>;
  /** A pull request merged or closed: the ends of crewbot's findings there kept for its figures; says what it did. */
  pullRequestEnded(end: PullRequestEnd, octokit: InstallationOctokit): Promise<string>;
}

/**
 * The app's slug when a comment may start by mentioning it (parse-mention.ts), else undefined:
 * only such comments wait for it (asked of GitHub once, then remembered). A failed lookup is
 * logged, and the comment is read without mentions.
 */
export async function slugForMention(deps: Pick<TriggerDeps, "appSlug" | "log">, body: string, deliveryId: string): Promise<string | undefined> {
  if (!mayMention(body)) return undefined;
  try {
    return await deps.appSlug();
  } catch (error) {
    deps.log.warn({ deliveryId, err: error }, "the app's slug could not be read: a mention at the start of this comment is not recognised");
    return undefined;
  }
}

/** What every webhook payload says of its repository. */
export interface RepositoryPayload {
  repository: { id?: number; name: string; owner: { login: string } };
}

/** The repository of a payload for the coverage check: its id (stable through renames and transfers) and name. */
export function repositoryOf(payload: RepositoryPayload): { id?: number; fullName: string } {
  const { id, name, owner } = payload.repository;
  return { ...(typeof id === "number" ? { id } : {}), fullName: `${owner.login}/${name}` };
}
