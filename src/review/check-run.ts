/**
 * The `crewbot/review` check run: where automatic reviews report, so a PR gets no comment noise.
 * Created `in_progress` when a review starts and always completed — success, neutral (findings),
 * skipped (with the reason), cancelled (a newer push took over) or failure — through the writer.
 * A job run again after its process died finds its own run (by head, name, app and job id) and
 * goes on with it: one check run per job, never one left running.
 */
import type { InstallationOctokit } from "../github/types.js";
import type { JobRecord } from "../queue/types.js";
import type { GitHubWriter } from "../report/github-writer.js";

export const CHECK_NAME = "crewbot/review";

/** GitHub's limit for a check run's `output.summary`. */
export const CHECK_SUMMARY_LIMIT = 65_535;

/** GitHub takes at most 50 annotations per request; further updates append the rest. */
export const ANNOTATIONS_PER_REQUEST = 50;

export interface CheckAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: "notice" | "warning" | "failure";
  title?: string;
  message: string;
}

/** A button on the check run (GitHub: label and identifier at most 20 characters, description 40, at most 3 actions). */
export interface CheckAction {
  label: string;
  description: string;
  identifier: string;
}

/** "Fix these findings": its click comes back as `check_run.requested_action` with this identifier. */
export const FIX_ACTION: CheckAction = { label: "Fix these findings", description: "crewbot fixes the open review findings", identifier: "fix" };

export type CheckConclusion = "success" | "neutral" | "skipped" | "cancelled" | "failure";

export interface CheckRunTarget {
  owner: string;
  repo: string;
  headSha: string;
  /** The job transcript. */
  detailsUrl?: string;
  /** Our id for the check run: the job id. */
  externalId: string;
}

export interface CheckOutput {
  title: string;
  summary: string;
}

const fit = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 40)}\n\n… (cut: too long for a check run)`);

export class CheckRun {
  private id: number | undefined;

  constructor(
    private readonly writer: GitHubWriter,
    private readonly target: CheckRunTarget,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private base() {
    const { owner, repo, headSha, detailsUrl, externalId } = this.target;
    return { owner, repo, name: CHECK_NAME, head_sha: headSha, external_id: externalId, ...(detailsUrl ? { details_url: detailsUrl } : {}) };
  }

  /** A job run again: its check run from the attempt that died, when GitHub has it, is the one written from now on. */
  async resume(octokit: InstallationOctokit, appId: number | undefined): Promise<void> {
    const { owner, repo, headSha, externalId } = this.target;
    this.id ??= (await findJobCheckRuns(octokit, { owner, repo, headSha, externalId }, appId))[0]?.id;
  }

  /** The review started: the PR shows a running check (the same one again for a resumed job). */
  async start(title = "Reviewing"): Promise<void> {
    const running = { status: "in_progress", started_at: this.now().toISOString(), output: { title, summary: "crewbot is reviewing this pull request." } };
    if (this.id !== undefined) {
      const { owner, repo } = this.target;
      await this.writer.write("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", { owner, repo, check_run_id: this.id, ...running });
      return;
    }
    const { data } = await this.writer.write<{ id: number }>("POST /repos/{owner}/{repo}/check-runs", { ...this.base(), ...running });
    this.id = data.id;
  }

  /**
   * The end state; a check run not started yet is created completed. The first 50 annotations
   * go with it, each further 50 in one more update of the same run (GitHub appends them).
   */
  async complete(conclusion: CheckConclusion, output: CheckOutput, annotations: readonly CheckAnnotation[] = [], actions: readonly CheckAction[] = []): Promise<void> {
    const shown = { title: fit(output.title, 200), summary: fit(output.summary, CHECK_SUMMARY_LIMIT) };
    const batch = (i: number) => annotations.slice(i, i + ANNOTATIONS_PER_REQUEST);
    const first = batch(0);
    const done = {
      status: "completed",
      conclusion,
      completed_at: this.now().toISOString(),
      output: { ...shown, ...(first.length > 0 ? { annotations: first } : {}) },
      ...(actions.length > 0 ? { actions: actions.slice(0, 3) } : {}),
    };
    const { owner, repo } = this.target;
    let id = this.id;
    if (id === undefined) id = (await this.writer.write<{ id: number }>("POST /repos/{owner}/{repo}/check-runs", { ...this.base(), ...done })).data.id;
    else await this.writer.write("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", { owner, repo, check_run_id: id, ...done });
    for (let i = ANNOTATIONS_PER_REQUEST; i < annotations.length; i += ANNOTATIONS_PER_REQUEST) {
      await this.writer.write("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", { owner, repo, check_run_id: id, output: { ...shown, annotations: batch(i) } });
    }
  }

  get started(): boolean {
    return this.id !== undefined;
  }
}

/**
 * The job's own `crewbot/review` runs on a head: GitHub's list of a commit's check runs, by check
 * name and (when the app id is known) this app, every attempt (`filter: all`), those whose
 * external id is the job's — one not completed first.
 */
export async function findJobCheckRuns(
  octokit: InstallationOctokit,
  target: { owner: string; repo: string; headSha: string; externalId: string },
  appId: number | undefined,
): Promise<Array<{ id: number; status: string }>> {
  const { owner, repo, headSha, externalId } = target;
  const query = { owner, repo, ref: headSha, check_name: CHECK_NAME, filter: "all" as const, per_page: 100, ...(appId !== undefined ? { app_id: appId } : {}) };
  const { data } = (await octokit.request("GET /repos/{owner}/{repo}/commits/{ref}/check-runs", query)) as {
    data: { check_runs: Array<{ id: number; status: string; external_id: string | null }> };
  };
  const own = data.check_runs.filter((r) => r.external_id === externalId);
  return [...own.filter((r) => r.status !== "completed"), ...own.filter((r) => r.status === "completed")];
}

/**
 * An automatic review whose worker died: its check run, found by the job id, is completed as a
 * failure so the pull request does not show a review running forever.
 */
export async function finaliseCheckRun(
  job: JobRecord,
  services: { octokitFor(id: number): Promise<InstallationOctokit>; writerFor(id: number, octokit: InstallationOctokit): GitHubWriter; appId?: number },
): Promise<void> {
  const { owner, repo, installationId } = job.target;
  const headSha = job.review?.headSha;
  if (!headSha) return;
  const octokit = await services.octokitFor(installationId);
  const [run] = await findJobCheckRuns(octokit, { owner, repo, headSha, externalId: job.id }, services.appId);
  if (!run || run.status === "completed") return;
  await services.writerFor(installationId, octokit).write("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", {
    owner,
    repo,
    check_run_id: run.id,
    status: "completed",
    conclusion: "failure",
    completed_at: new Date().toISOString(),
    output: { title: "Failed: interrupted", summary: "crewbot stopped while reviewing; the next push is reviewed again." },
  });
}
