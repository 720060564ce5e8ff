/**
 * What writers teach crewbot, recorded as sightings of learning candidates (`services.records.learnings`):
 * only from people with write permission (asked through the permission cache the triggers share),
 * never from a bot, nothing at all with `learnings.enabled: false`. A candidate that becomes due
 * (`learnings.proposeAfter` sightings) asks for the learnings pull request; nothing here ever
 * fails the job that records: a refusal is logged with the job id.
 */
import type { CrewbotConfig } from "../config/schema.js";
import { cleanText } from "../text/clean-text.js";
import { canWrite } from "../github/permission.js";
import type { InstallationOctokit } from "../github/types.js";
import { isDue, normaliseKind } from "../learnings/candidates.js";
import { ruleOf } from "../learnings/rule-reply.js";
import type { CandidateSighting } from "../learnings/types.js";
import type { JobRecord } from "../queue/types.js";
import { findingTitle } from "../review/open-findings.js";
import { repoKey, type StoredFinding } from "../review/review-store.js";
import { isDismissal, threadFindingText } from "../review/thread-plan.js";
import type { JobServices } from "./services.js";

export interface SightingsAt {
  job: JobRecord;
  octokit: InstallationOctokit;
  config: Pick<CrewbotConfig, "learnings">;
}

const isBotLogin = (login: string) => /\[bot\]$/i.test(login);

/**
 * Records the sightings of writers (others are left out, logged); when one makes its candidate
 * due, asks once for the learnings pull request. Returns how many were new.
 */
export async function recordSightings(services: JobServices, at: SightingsAt, sightings: readonly CandidateSighting[]): Promise<number> {
  const { job, octokit, config } = at;
  const store = services.records.learnings;
  if (!config.learnings.enabled || sightings.length === 0) return 0;
  const { owner, repo, number, installationId } = job.target;
  let added = 0;
  let due: string | undefined;
  for (const sighting of sightings) {
    try {
      if (isBotLogin(sighting.by)) continue;
      if (!canWrite(await services.github.permissions.get(octokit, owner, repo, sighting.by))) {
        services.observe.log.info(`job ${job.id}: @${sighting.by} has no write permission: what they wrote teaches crewbot nothing`);
        continue;
      }
      const result = await store.addSighting(repoKey(owner, repo), sighting);
      if (result.added === false) continue;
      added++;
      if (isDue(result, config.learnings.proposeAfter)) due ??= `a candidate repeated ${result.count ?? result.sightings.length} times (${result.source})`;
    } catch (error) {
      services.observe.log.warn(`job ${job.id}: a ${sighting.source} sighting was not recorded: ${(error as Error).message}`);
    }
  }
  if (due) {
    try {
      await services.records.proposeLearnings({ installationId, owner, repo, number, reason: due });
    } catch (error) {
      services.observe.log.warn(`job ${job.id}: the learnings pull request could not be asked for: ${(error as Error).message}`);
    }
  }
  return added;
}

/** A writer's reply in one of crewbot's threads, with what the thread's finding was. */
export interface ThreadReply {
  /** The reply's text, as written. */
  body: string;
  by: string;
  at: number;
  number: number;
  /** The thread's page (its first comment's). */
  threadUrl: string;
  path?: string;
  /** crewbot's comment that opened the thread. */
  topBody: string;
  /** The kept finding of the thread's fingerprint, when the store still has it. */
  finding?: StoredFinding;
}

/** "finding: … / reply: …": the words a learning is later worded from (data). */
function replyText(finding: string, reply: string): string {
  return `finding: ${finding}\nreply: ${cleanText(reply).trim()}`;
}

/**
 * The sightings a reply makes (pure): a dismissal of the thread's finding (its kind from the kept
 * finding, else its title) — and, when the finding carried a suggestion, that suggestion refused —
 * or else a rule the reply states. Nothing when the thread holds no finding of crewbot's and the
 * reply states no rule.
 */
export function threadReplySightings(reply: ThreadReply, hasFinding: boolean): CandidateSighting[] {
  const base = { url: reply.threadUrl, number: reply.number, by: reply.by, at: reply.at, ...(reply.path ? { path: reply.path } : {}) };
  if (hasFinding && isDismissal(reply.body)) {
    const title = reply.finding?.title || findingTitle(threadFindingText(reply.topBody));
    const kind = reply.finding?.kind || normaliseKind(title);
    if (kind === "") return [];
    const text = replyText(title, reply.body);
    const refused = reply.finding?.suggestion ? [{ ...base, source: "suggestion-refused" as const, kind, text }] : [];
    return [{ ...base, source: "dismissed", kind, text }, ...refused];
  }
  const rule = ruleOf(reply.body);
  return rule ? [{ ...base, source: "rule", kind: rule, text: cleanText(reply.body).trim() }] : [];
}

const FINGERPRINT = /<!--\s*crewbot:finding:([0-9a-f]{16})\s*-->/;

/** The thread a reply was written in, as the thread answer job read it. */
export interface RepliedThread {
  topBody: string;
  /** The thread's page. */
  url: string;
  path: string;
}

/**
 * The reply of the thread answer job's writer, recorded (the trigger let only a writer's reply
 * through; the permission is asked again, from the cache). Never throws.
 */
export async function recordThreadReply(services: JobServices, at: SightingsAt, thread: RepliedThread): Promise<void> {
  const { job } = at;
  if (!at.config.learnings.enabled) return;
  try {
    const fingerprint = FINGERPRINT.exec(thread.topBody)?.[1];
    const state = fingerprint ? await services.records.reviews.get(repoKey(job.target.owner, job.target.repo), job.target.number) : undefined;
    const when = Date.parse(job.trigger.commentCreatedAt ?? "");
    const reply: ThreadReply = {
      ...{ body: job.trigger.request, by: job.trigger.sender, at: Number.isFinite(when) ? when : Date.now(), number: job.target.number },
      ...{ threadUrl: thread.url, path: thread.path, topBody: thread.topBody },
      ...(state ? { finding: state.findings.find((f) => f.fingerprint === fingerprint) } : {}),
    };
    await recordSightings(services, at, threadReplySightings(reply, fingerprint !== undefined));
  } catch (error) {
    services.observe.log.warn(`job ${job.id}: the reply was not recorded as a learning candidate: ${(error as Error).message}`);
  }
}
