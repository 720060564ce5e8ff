/**
 * A pull request merged or closed: the end of each finding crewbot posted there, kept for the
 * repository's figures (insights/) and counted in the metrics. Only a pull request crewbot kept
 * findings for costs a request: one GraphQL read of its threads, as a review makes; no job, no
 * checkout, no model (docs/decisions.md).
 */
import type { InstallationOctokit } from "../github/types.js";
import { countEnds, findingEnds } from "../insights/finding-ends.js";
import { fixedAtClose } from "./fixed-at-close.js";
import { repoKey } from "../review/review-store.js";
import { planWithoutMirror, readThreads, botSlug } from "./resolve-threads.js";
import type { JobServices } from "./services.js";

/** The pull request that ended, as the `pull_request.closed` webhook says. */
export interface PullRequestEnd {
  installationId: number;
  owner: string;
  repo: string;
  number: number;
  merged: boolean;
  /** The head it closed on. */
  headSha: string;
  /** Epoch ms. */
  closedAt: number;
  deliveryId: string;
}

type Services = Pick<JobServices, "records" | "observe" | "github">;

/** Keeps the ends of the pull request's findings; says in one line what it did, for the log. */
export async function keepPullRequestEnd(end: PullRequestEnd, octokit: InstallationOctokit, services: Services): Promise<string> {
  const { owner, repo, number, installationId, merged, closedAt } = end;
  const insights = services.records.insights;
  if (!insights) return "no insights store";
  const kept = await services.records.reviews.get(repoKey(owner, repo), number);
  if (!kept || kept.findings.length === 0) return "no findings kept: nothing to record";
  // A read that fails (logged) leaves only the pushes' fixes known: every other finding counts as open.
  const target = { installationId, owner, repo, number, isPullRequest: true };
  const read = await readThreads({ id: `pull-request-closed ${end.deliveryId}`, target }, octokit, services);
  const slug = read?.slug ?? (await botSlug(services.github));
  // A head no review saw (a fix merged before its review ran): its fixes are read from GitHub's compare.
  const log = (line: string) => services.observe.log.warn(`pull request ${owner}/${repo}#${number} closed: ${line}`);
  const fixedLate = await fixedAtClose(octokit, { owner, repo }, kept.findings, kept.headSha, end.headSha, log);
  const findings = kept.findings.map((f) => (fixedLate.has(f.fingerprint) ? { ...f, fixed: true } : f));
  const ends = countEnds(findingEnds(findings, read && planWithoutMirror(read).closed, slug));
  await insights.put(`${owner}/${repo}`, { type: "pull-request", key: String(number), at: closedAt, number, merged, ends });
  services.observe.metrics.findingsEnded(ends, merged);
  const late = fixedLate.size > 0 ? `, ${fixedLate.size} fixed by pushes no review saw` : "";
  return `${kept.findings.length} finding ends recorded${late}${read ? "" : " (threads unread: dismissals unknown)"}`;
}
