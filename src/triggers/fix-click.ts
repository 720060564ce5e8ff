/**
 * `check_run.requested_action`: someone clicked "Fix these findings" on crewbot's review check.
 * Whether the click is ours to take is decided from the payload (pure); then the clicker's
 * permission is read, and only a writer's click queues a fix job. Anyone else's click is logged
 * and changes nothing on GitHub (GitHub shows the button to everyone who can see the check).
 */
import { canWrite } from "../github/permission.js";
import type { InstallationOctokit, PullRef } from "../github/types.js";
import { FIX_ACTION, CHECK_NAME } from "../review/check-run.js";
import type { NewJob } from "../queue/types.js";
import { isBot } from "./comment-command.js";
import { repositoryOf, type TriggerDeps } from "./deps.js";

/** The parts of a `check_run` payload the trigger reads. */
export interface CheckRunActionPayload {
  action: string;
  requested_action?: { identifier: string } | null;
  check_run: { id: number; name: string; head_sha: string; app?: { id: number; slug?: string } | null; pull_requests?: PullRef[] };
  repository: { id: number; name: string; owner: { login: string }; clone_url: string; default_branch: string; private: boolean; size?: number };
  installation?: { id: number };
  sender: { login: string; id?: number; type?: string };
}

export type FixClickDecision = { action: "check"; number: number; login: string } | { action: "ignore"; reason: string };

/** Pure: a click on crewbot's review check by a person, on a pull request of this repository. */
export function decideFixClick(payload: CheckRunActionPayload, own: { id?: number; slug?: string }): FixClickDecision {
  const run = payload.check_run;
  if (payload.action !== "requested_action") return { action: "ignore", reason: `action ${payload.action}` };
  if (payload.requested_action?.identifier !== FIX_ACTION.identifier) return { action: "ignore", reason: `requested action ${payload.requested_action?.identifier ?? "(none)"}` };
  if (run.name !== CHECK_NAME) return { action: "ignore", reason: `check run ${run.name} is not crewbot's review` };
  if ((own.id !== undefined && run.app?.id !== own.id) || (own.id === undefined && own.slug !== undefined && run.app?.slug !== own.slug)) {
    return { action: "ignore", reason: "the check run is another app's" };
  }
  if (!payload.installation) return { action: "ignore", reason: "no installation in the payload" };
  if (isBot({ login: payload.sender.login, type: payload.sender.type ?? "User" })) return { action: "ignore", reason: "clicked by a bot" };
  const repoId = payload.repository.id;
  // GitHub lists only pull requests whose head is in this repository: a fork's click finds none.
  const pr = (run.pull_requests ?? []).find((p) => p.head.repo?.id === repoId && p.base.repo?.id === repoId);
  if (!pr) return { action: "ignore", reason: "no pull request of this repository has this check run (a fork's, or closed)" };
  return { action: "check", number: pr.number, login: payload.sender.login };
}

/** The fix job of a writer's click. Pure. */
export function fixFindingsJob(payload: CheckRunActionPayload, number: number, deliveryId: string, now = Date.now()): NewJob {
  const { repository, check_run: run, sender } = payload;
  return {
    deliveryId,
    kind: "implement",
    target: { installationId: payload.installation!.id, owner: repository.owner.login, repo: repository.name, number, isPullRequest: true },
    trigger: { sender: sender.login, ...(sender.id !== undefined ? { senderId: sender.id } : {}), request: "Fix these findings", commentCreatedAt: new Date(now).toISOString() },
    repo: { cloneUrl: repository.clone_url, defaultBranch: repository.default_branch, private: repository.private, size: repository.size },
    fixFindings: { checkRunId: run.id, headSha: run.head_sha },
  };
}

/** After the pure checks: covered repository, the clicker's permission, their rate; then the job. */
export async function takeFixClick(deliveryId: string, payload: CheckRunActionPayload, decision: { number: number; login: string }, octokit: InstallationOctokit, deps: TriggerDeps): Promise<void> {
  const { owner: { login: owner }, name: repo } = payload.repository;
  const ids = { deliveryId, owner, repo, number: decision.number, login: decision.login };
  const uncovered = await deps.coverage(payload.installation!.id, repositoryOf(payload));
  if (uncovered) return deps.log.info({ ...ids, reason: uncovered }, "Fix these findings on a repository not covered: ignored");
  const permission = await deps.permissions.get(octokit, owner, repo, decision.login);
  if (!canWrite(permission)) return deps.log.info({ ...ids, permission }, "Fix these findings clicked by someone without write access: nothing done");
  if ((await deps.admission.take(payload.installation!.id, decision.login)) !== "go") return deps.log.info(ids, "Fix these findings rate-limited for this person: nothing done");
  await deps.enqueue(fixFindingsJob(payload, decision.number, deliveryId), octokit);
}
