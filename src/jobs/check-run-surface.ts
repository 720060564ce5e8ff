/**
 * The `crewbot/review` check run as a job's surface (an automatic review): no comment; the check
 * run starts when the work begins and always completes — with the review's own output, or with
 * the job's failure. A job that ended before it began (off, skipped, deferred) may make none.
 */
import { CheckRun, finaliseCheckRun } from "../review/check-run.js";
import { headline, transcriptUrl } from "../report/render.js";
import { outcomeOf, quietReport, type JobSurface } from "./job-surface.js";

export const checkRunSurface: JobSurface = {
  async open(job, _ctx, services, { writer, access }) {
    const { owner, repo } = job.target;
    const link = transcriptUrl(services.operator.publicUrl, job.id);
    const check = new CheckRun(writer, { owner, repo, headSha: job.review!.headSha, detailsUrl: link, externalId: job.id });
    // Run again after its process died: the check run it started is the one it goes on with.
    const resumed = job.attempts > 1 ? check.resume(access.octokit, services.github.appId) : Promise.resolve();
    resumed.catch(() => undefined); // awaited when the work begins; a failure then ends the job
    // The check run links the transcript: the job's events are recorded once its work begins.
    let recording = false;
    const report = quietReport(
      job,
      services,
      writer,
      async (ending) => {
        const outcome = outcomeOf(ending);
        if (ending.check === null) return outcome;
        await resumed.catch(() => undefined);
        if (ending.check) {
          const { conclusion, output, annotations, actions } = ending.check;
          await check.complete(conclusion, output, annotations, actions);
          return outcome;
        }
        const { terminal } = ending;
        const problems = ending.patch?.notes?.map((p) => `- ${p}`).join("\n");
        const summary = [problems ?? headline(terminal), `\n[Transcript](${link})`].join("\n");
        const conclusion = terminal.kind === "cancelled" ? "cancelled" : "failure";
        await check.complete(conclusion, { title: headline(terminal).replace(/^\S+ /, ""), summary }).catch((err: unknown) => {
          services.observe.log.warn(`job ${job.id}: could not complete the check run: ${(err as Error).message}`);
        });
        return outcome;
      },
      () => recording,
    );
    return {
      ...report,
      get state() {
        return report.state;
      },
      async begin() {
        await resumed;
        await check.start();
        recording = true;
        services.observe.transcripts.begin(job, [access.token]);
      },
      async finish(ending) {
        const ended = await report.finish(ending);
        recording = false; // a summary written after the review counts, but is not the review's transcript
        return ended;
      },
    };
  },
  finaliseInterrupted: (job, services) => finaliseCheckRun(job, services.github),
};
