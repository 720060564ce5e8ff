/**
 * A `check_suite.completed` event → whether it is crewbot's business: a failed or timed-out suite
 * of another app on the head of a pull request from a branch of this repository that ci-fix rounds
 * work on (jobs/ci-fix-branches.ts: crewbot's own, or one of `implement.ciFix.branches`). Pure; the
 * branch is then checked against the repository's config and the pull request with GitHub
 * (check-suite-start.ts).
 */
import { capMiddle } from "../text/cap-middle.js";
import type { NewJob } from "../queue/types.js";
import { MAX_STORED_BODY_CHARS } from "./pull-request-event.js";
import type { PullData, PullRef } from "../github/types.js";
import { ciFixBranchRefusal } from "../jobs/ci-fix-branches.js";
/** ci-fix jobs of a PR replace each other: a newer suite supersedes a waiting one. */
export const CI_FIX_GROUP = "ci-fix";
const FAILED = new Set(["failure", "timed_out"]);

/** The parts of a `check_suite` payload the trigger reads. */
export interface CheckSuitePayload {
  action: string;
  check_suite: {
    id: number;
    head_branch: string | null;
    head_sha: string;
    conclusion: string | null;
    app?: { id: number; slug?: string } | null;
    pull_requests?: PullRef[];
  };
  repository: { id: number; name: string; owner: { login: string }; clone_url: string; default_branch: string; private: boolean; size?: number };
  installation?: { id: number };
  sender?: { login: string; id?: number };
}

/** crewbot's own app, whose suites (its `crewbot/review` check) never count. */
export interface OwnApp {
  id?: number;
  slug?: string;
}

/** `verify`: the suite failed on the head of pull request `number` from `branch` of this repository. */
export type CheckSuiteDecision = { action: "verify"; number: number; branch: string } | { action: "ignore"; reason: string };

export function decideCheckSuite(payload: CheckSuitePayload, own: OwnApp): CheckSuiteDecision {
  const suite = payload.check_suite;
  if (payload.action !== "completed") return { action: "ignore", reason: `action ${payload.action}` };
  if (!FAILED.has(suite.conclusion ?? "")) return { action: "ignore", reason: `the suite's conclusion is ${suite.conclusion ?? "none"}` };
  if (!payload.installation) return { action: "ignore", reason: "no installation in the payload" };
  if ((own.id !== undefined && suite.app?.id === own.id) || (own.slug !== undefined && suite.app?.slug === own.slug)) {
    return { action: "ignore", reason: "the suite is crewbot's own" };
  }
  if (!suite.head_branch) return { action: "ignore", reason: "the suite names no branch (a fork's)" };
  const repoId = payload.repository.id;
  // GitHub lists only pull requests whose head is in this repository; a fork's suite has none.
  const pr = (suite.pull_requests ?? []).find((p) => p.head.sha === suite.head_sha && p.head.repo?.id === repoId && p.base.repo?.id === repoId);
  if (!pr) return { action: "ignore", reason: "no pull request of this repository has this commit as its head" };
  return { action: "verify", number: pr.number, branch: suite.head_branch };
}

export type { PullData };

/**
 * Why GitHub's current view of the pull request makes the suite none of crewbot's business (with
 * the repository's `implement.ciFix.branches`); undefined when it is.
 */
export function pullRefusal(pr: PullData, payload: CheckSuitePayload, branches: readonly string[]): string | undefined {
  const full = `${payload.repository.owner.login}/${payload.repository.name}`.toLowerCase();
  if (pr.state !== "open") return `pull request #${pr.number} is ${pr.state}`;
  if (pr.head.repo?.full_name.toLowerCase() !== full || pr.base.repo.full_name.toLowerCase() !== full) return `pull request #${pr.number} comes from a fork`;
  if (pr.head.sha !== payload.check_suite.head_sha) return `pull request #${pr.number}'s head moved on to ${pr.head.sha.slice(0, 7)}`;
  const refused = ciFixBranchRefusal({ ref: pr.head.ref, sameRepository: true }, branches);
  return refused && `pull request #${pr.number}'s ${refused}`;
}

/** The ci-fix job of a verified suite. */
export function ciFixJob(payload: CheckSuitePayload, pr: PullData, deliveryId: string, now = Date.now()): NewJob {
  const { repository, check_suite: suite } = payload;
  return {
    deliveryId,
    kind: "ci-fix",
    group: CI_FIX_GROUP,
    supersede: true,
    target: { installationId: payload.installation!.id, owner: repository.owner.login, repo: repository.name, number: pr.number, isPullRequest: true },
    trigger: { sender: payload.sender?.login ?? "github", ...(payload.sender?.id !== undefined ? { senderId: payload.sender.id } : {}), request: "", commentCreatedAt: new Date(now).toISOString() },
    repo: { cloneUrl: repository.clone_url, defaultBranch: repository.default_branch, private: repository.private, size: repository.size },
    subject: { title: pr.title.slice(0, 1000), body: capMiddle(pr.body ?? "", MAX_STORED_BODY_CHARS, "of the description"), author: pr.user?.login ?? "ghost" },
    ciFix: { suiteId: suite.id, headSha: suite.head_sha, headRef: pr.head.ref, conclusion: suite.conclusion ?? "failure", app: suite.app?.slug ?? "unknown" },
  };
}
