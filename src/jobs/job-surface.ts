/**
 * What a job's surface is (where it reports: jobs/job-types.ts names one per job type) and the
 * report of a surface with nothing to edit while the job runs. The implementations are in
 * jobs/job-surfaces.ts.
 */
import type { JobContext } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import type { GitHubWriter } from "../report/github-writer.js";
import { jobProgress } from "../report/job-comment.js";
import { headline } from "../report/render.js";
import { progressFromEvents } from "../report/progress-state.js";
import type { ProgressState, Terminal } from "../report/types.js";
import { surfaceKeyOf } from "./job-types.js";
import { endState, type JobAccess, type JobReport, type ReportEnding } from "./job-report.js";
import type { JobServices } from "./services.js";

/** What the frame opened before the surface: the installation's writer and the job's credentials. */
export interface Opened {
  writer: GitHubWriter;
  access: JobAccess;
}

/** A surface's report: the job's `JobReport`, told when the work begins (a check run starts then). */
export interface SurfaceReport extends JobReport {
  begin?(): Promise<void>;
}

export interface JobSurface {
  /** The job's presence opened (for a progress comment: 👀 and the comment, a queued one taken over). */
  open(job: JobRecord, ctx: JobContext, services: JobServices, opened: Opened): Promise<SurfaceReport>;
  /** A job that died with its process, at start-up: what it showed must not be left spinning. */
  finaliseInterrupted(job: JobRecord, services: JobServices): Promise<void>;
}

/**
 * A report with nothing to edit while the job runs: its events go to the transcript (once
 * `recording`) and are counted (usage, cost), and `end` shows the ending its surface's way.
 */
export function quietReport(job: JobRecord, services: JobServices, writer: GitHubWriter, end: (ending: ReportEnding, state: ProgressState) => Promise<string>, recording = () => true): JobReport {
  const progress = progressFromEvents(jobProgress(job, services.operator.publicUrl));
  return {
    writer,
    event: (event) => {
      if (recording()) services.observe.transcripts.append(job.id, event);
      progress.apply(event);
    },
    set: (patch) => void progress.set(patch),
    get state() {
      return progress.state;
    },
    pause: () => Promise.reject(new Error(`a ${surfaceKeyOf(job)} job cannot wait for an answer`)),
    async finish(ending) {
      const outcome = await end(ending, progress.set({ ...ending.patch, terminal: ending.terminal }));
      if (recording()) await services.observe.transcripts.end(job.id, ending.terminal, outcome);
      return { state: endState(ending.terminal), outcome };
    },
  };
}

/** What the queue records of an ending: the job's own words, or its terminal state's headline. */
export const outcomeOf = (ending: ReportEnding): string => ending.outcome ?? headline(ending.terminal);

export const reasonOf = (t: Terminal): string => ("reason" in t && t.reason) || ("budget" in t && t.budget) || t.kind;
