import type { ChainResult } from "../chain/run-chain.js";
import type { ContextSection } from "../text/prompt.js";
import type { Budgets } from "../agent/budget.js";
import { pullRequestHead } from "../github/pulls.js";
import { webUrl } from "../github/urls.js";
import { jobAnswer, type JobAnswer } from "../queue/job-kinds.js";
import type { JobContext, JobResult } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import { citationsIn, linkCitations, type Citation } from "../report/render-answer.js";
import { blobLines, type BlobLines } from "../workspace/blob-lines.js";
import { diffBetween, mergeBase } from "../workspace/diff.js";
import { inJobFrame, runJobChain } from "./job-frame.js";
import { chainFailure, jobTask, type Ending } from "./outcome.js";
import { prepareJob, type PrepareOptions } from "./prepare.js";
import type { JobServices, ObservePort } from "./services.js";

/** The pull request's diff in the context keeps this much; the rest is in the checkout. */
const MAX_DIFF_CHARS = 100_000;
/** Files checked for one answer's citations; a citation of a file past these is not linked. */
const MAX_CITED_FILES = 100;

/**
 * The answer job: a read-only chain answers in the progress comment, on a fresh checkout — the
 * default branch for an issue, the head for a pull request, with its diff in the context (a fork's
 * head: no `bash`, jobs/checkout-trust.ts). Each citation becomes a permalink at the commit read,
 * checked to exist first. Which chain, and the task's verb, are the job kind's `answer`
 * (queue/job-kinds.ts): `/ask` and any kind whose row names one.
 */
export const runAnswerJob = (job: JobRecord, ctx: JobContext, services: JobServices): Promise<JobResult> => {
  const answer = jobAnswer(job.kind);
  if (!answer) throw new Error(`job kind ${job.kind} names no answer`);
  return answerJob(answer)(job, ctx, services);
};

/** The answer job of one `answer` (a kind's row, or a test's). */
export function answerJob(answer: JobAnswer): (job: JobRecord, ctx: JobContext, services: JobServices) => Promise<JobResult> {
  return (job, ctx, services) =>
    inJobFrame(job, ctx, services, async (report, dirs, access) => {
      const diff: ContextSection[] = [];
      const options: PrepareOptions = {};
      if (job.target.isPullRequest) {
        const head = await pullRequestHead(access.octokit, job.target);
        Object.assign(options, {
          ref: head.headSha,
          headRepo: head.headRepo,
          withMirror: async (mirror: string) => void diff.push(await pullDiff(mirror, job, head, services.observe)),
        });
      }
      const prepared = await prepareJob(job, { access, report }, services, dirs, options);
      const chain = prepared.chains.get(answer.chain);
      if (!chain) throw new Error(`there is no chain named ${answer.chain}`);
      const { result, budget } = await runJobChain(ctx, services, report, prepared, dirs, {
        chain,
        task: jobTask(job, answer.task),
        context: diff,
      });
      const ending = await answerOutcome(result, ctx.signal, budget.limits, { root: prepared.root, sha: prepared.sha, web: webUrl(job.repo.cloneUrl), jobId: job.id }, services.observe);
      return report.finish(ending);
    });
}

async function pullDiff(mirror: string, job: JobRecord, head: { headSha: string; baseRef: string }, observe: Pick<ObservePort, "log">): Promise<ContextSection> {
  const source = `the diff of pull request #${job.target.number}`;
  try {
    const diff = await diffBetween(mirror, await mergeBase(mirror, `refs/heads/${head.baseRef}`, head.headSha), head.headSha);
    return { source, text: diff.length > MAX_DIFF_CHARS ? `${diff.slice(0, MAX_DIFF_CHARS)}\n… (cut: the rest of the diff is in the checkout)` : diff };
  } catch (error) {
    observe.log.warn(`job ${job.id}: the pull request's diff could not be read (the answer goes on without it): ${(error as Error).message}`);
    return { source, text: "(the diff could not be read; the checkout holds the pull request's head)" };
  }
}

interface Read {
  root: string;
  sha: string;
  /** The repository's web page (`https://<host>/<owner>/<repo>`): GitHub's or an Enterprise host's. */
  web: string;
  jobId: string;
}

async function answerOutcome(result: ChainResult, signal: AbortSignal, limits: Budgets, read: Read, observe: Pick<ObservePort, "log">): Promise<Ending> {
  const failed = chainFailure(result, signal, limits);
  if (failed) return failed;
  const text = result.output.trim();
  if (text === "") return { terminal: { kind: "failed", reason: "the agent gave no answer" } };
  return { terminal: { kind: "done" }, patch: { answer: await withPermalinks(text, read, observe) } };
}

/** The answer with each citation a permalink at `sha`, or plain text with the reason it is not one. */
export async function withPermalinks(text: string, read: Read, observe: Pick<ObservePort, "log">): Promise<string> {
  const paths = [...new Set(citationsIn(text).map((c) => c.path))];
  const checked = paths.slice(0, MAX_CITED_FILES);
  let files: Map<string, BlobLines> | undefined;
  try {
    files = await blobLines(read.root, read.sha, checked);
  } catch (error) {
    observe.log.warn(`job ${read.jobId}: the answer's citations could not be checked, so none is linked: ${(error as Error).message}`);
  }
  const at = read.sha.slice(0, 7);
  const check = (c: Citation): string | undefined => {
    const file = files?.get(c.path);
    if (!files) return "could not be checked";
    if (!file) return `not checked: more than ${MAX_CITED_FILES} files cited`;
    if (file.kind === "missing") return `no such file at ${at}`;
    if (file.kind === "binary") return `a binary file at ${at}`;
    if (file.kind === "too-large") return "the file is too large for GitHub to show its lines";
    if (c.start < 1 || c.end < c.start) return "not a line range";
    if (c.end > file.lines) return `the file has ${file.lines} line${file.lines === 1 ? "" : "s"} at ${at}`;
    return undefined;
  };
  const blobUrl = (path: string) => `${read.web}/blob/${read.sha}/${path.split("/").map(encodeURIComponent).join("/")}`;
  return linkCitations(text, check, blobUrl);
}
