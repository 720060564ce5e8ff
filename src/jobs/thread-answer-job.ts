/**
 * An answer in a thread of one of crewbot's review comments (DESIGN.md §1): the reviewer, read-only,
 * reads the thread, the file around the commented line and the PR's diff, and its reply is posted in
 * that thread (`POST …/pulls/{n}/comments` with `in_reply_to`; the `/replies` endpoint is not open
 * to GitHub Apps). No progress comment: the answer, or the reason there is none, is the reply.
 */
import type { ContextSection } from "../text/prompt.js";
import type { AgentDefinition, ChainDefinition } from "../chain/types.js";
import { loadRepoConfig } from "../config/load.js";
import { cleanText } from "../text/clean-text.js";
import type { InstallationOctokit } from "../github/types.js";
import type { JobContext, JobResult } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import type { GitHubWriter } from "../report/github-writer.js";
import { safeBlock } from "../text/github-markdown.js";
import { notReadable, readConfined, type ReadLog } from "../workspace/confined-read.js";
import { headline, transcriptUrl } from "../report/render.js";
import type { Terminal } from "../report/types.js";
import { diffBetween, mergeBase } from "../workspace/diff.js";
import { cleanJobDirs, makeJobDirs, type JobDirs } from "./job-dirs.js";
import { endState } from "./job-report.js";
import { chainFailure, failure } from "./outcome.js";
import { runJobChain } from "./job-frame.js";
import { prepareJob, type Prepared } from "./prepare.js";
import type { JobServices } from "./services.js";
import { recordThreadReply } from "./learning-sightings.js";
import { webUrl } from "../github/urls.js";

/** The PR's diff as the reviewer gets it here, at most this long (it reads the rest itself). */
const MAX_DIFF_CHARS = 100_000;
/** Lines either side of the commented line. */
const AROUND = 30;
const MAX_ANSWER_CHARS = 60_000;

/**
 * The reviewer under a name of its own: the chain checks a step named `reviewer` for a review, and
 * an answer is prose. Same prompt, tools and model (`models.reviewer` counts).
 */
export const ANSWERER = "reviewer-in-thread";
export const ANSWER_CHAIN: ChainDefinition = { name: "thread-answer", steps: [{ agent: ANSWERER, task: "{task}" }], file: "(built in: answers in review threads)" };

function withAnswerer(prepared: Prepared): Prepared {
  const reviewer = prepared.agents.get("reviewer");
  if (!reviewer) throw new Error("no reviewer agent is defined");
  const model = prepared.config.models.reviewer ?? reviewer.model;
  const answerer: AgentDefinition = { ...reviewer, name: ANSWERER, ...(model ? { model } : {}) };
  return { ...prepared, agents: new Map([...prepared.agents, [ANSWERER, answerer]]) };
}

interface Thread {
  topId: number;
  path: string;
  line?: number;
  topBody: string;
  /** The thread's page (its first comment's). */
  url?: string;
}

/** The thread as the webhook placed it: enough to reply in when GitHub could not be asked. */
function placedThread(job: JobRecord): Thread | undefined {
  const place = job.trigger.reviewComment;
  return place?.inReplyToId ? { topId: place.inReplyToId, path: place.path, ...(place.line !== undefined ? { line: place.line } : {}), topBody: "" } : undefined;
}

async function threadOf(octokit: InstallationOctokit, job: JobRecord): Promise<Thread> {
  const place = job.trigger.reviewComment!;
  const { owner, repo } = job.target;
  const { data } = (await octokit.request("GET /repos/{owner}/{repo}/pulls/comments/{comment_id}", { owner, repo, comment_id: place.inReplyToId! })) as {
    data: { body: string; path: string; line?: number | null; original_line?: number | null; html_url?: string };
  };
  const url = data.html_url ?? `${webUrl(job.repo.cloneUrl)}/pull/${job.target.number}#discussion_r${place.inReplyToId}`;
  return { topId: place.inReplyToId!, path: data.path, line: data.line ?? data.original_line ?? place.line, topBody: data.body, url };
}

/**
 * The file at the head around the commented line, numbered; empty when it is not in the checkout.
 * A file crewbot will not read (a symlink out of the checkout) is named with the reason, never shown.
 */
async function around(root: string, file: string, line: number | undefined, log: ReadLog): Promise<ContextSection[]> {
  const read = await readConfined(root, file, { log });
  if (!read.ok) return read.kind === "missing" ? [] : [{ source: `${file} at the pull request's head`, text: notReadable(read.reason) }];
  const lines = read.text.replace(/\n$/, "").split("\n");
  const at = line ?? 1;
  const from = Math.max(1, at - AROUND);
  const to = Math.min(lines.length, at + AROUND);
  const shown = lines.slice(from - 1, to).map((l, i) => `${String(from + i).padStart(5)}  ${l}`);
  return [{ source: `${file} lines ${from}-${to} at the pull request's head`, text: shown.join("\n") }];
}

function task(job: JobRecord, thread: Thread): string {
  const where = `${thread.path}${thread.line ? `:${thread.line}` : ""}`;
  return [
    `@${job.trigger.sender} replied in the thread of your review comment on ${where} of pull request #${job.target.number}.`,
    `Answer that reply in the thread: read the code you need, then write only your answer, briefly, as markdown. Do not call submit_review; write no new review.`,
    `If they are right, say so plainly; if the finding stands, explain why with the code.`,
    "",
    "Your comment that started the thread:",
    "<<<",
    cleanText(thread.topBody).trim(),
    ">>>",
    "",
    "Their reply:",
    "<<<",
    cleanText(job.trigger.request).trim(),
    ">>>",
  ].join("\n");
}

async function reply(writer: GitHubWriter, job: JobRecord, thread: Thread, body: string): Promise<string> {
  const { owner, repo, number } = job.target;
  const { data } = await writer.write<{ html_url: string }>("POST /repos/{owner}/{repo}/pulls/{pull_number}/comments", {
    ...{ owner, repo, pull_number: number, body },
    // GitHub's description requires these beside `in_reply_to` (which makes GitHub ignore them).
    ...{ in_reply_to: thread.topId, commit_id: job.review!.headSha, path: thread.path },
  });
  return data.html_url;
}

/** One short reply: there is no answer, and why (the writer redacts it). A refused write is logged. */
async function sayNoAnswer(writer: GitHubWriter, job: JobRecord, thread: Thread, why: string, link: string, log: JobServices["log"]): Promise<void> {
  await reply(writer, job, thread, `${why} — crewbot could not answer here. [Transcript](${link})`).catch((err: unknown) => {
    log.warn(`job ${job.id}: could not post the failure in the thread: ${(err as Error).message}`);
  });
}

/** A thread answer whose process died (finalised at start-up): the person who replied hears it ended, once. */
export async function finaliseThreadAnswer(job: JobRecord, services: Pick<JobServices, "octokitFor" | "writerFor" | "publicUrl" | "log">): Promise<void> {
  const thread = placedThread(job);
  if (!thread || !job.review?.headSha || job.outcome?.startsWith("⏹")) return;
  const octokit = await services.octokitFor(job.target.installationId);
  const why = headline({ kind: "failed", reason: "interrupted" });
  await sayNoAnswer(services.writerFor(job.target.installationId, octokit), job, thread, why, transcriptUrl(services.publicUrl, job.id), services.log);
}

export async function runThreadAnswer(job: JobRecord, ctx: JobContext, services: JobServices): Promise<JobResult> {
  const { installationId } = job.target;
  const octokit = await services.octokitFor(installationId);
  const token = await services.tokenFor(octokit);
  const writer = services.writerFor(installationId, octokit, [token]);
  const link = transcriptUrl(services.publicUrl, job.id);
  let dirs: JobDirs | undefined;
  let thread: Thread | undefined;
  services.transcripts?.begin(job, [token]);
  const end = async (terminal: Terminal, line: string): Promise<JobResult> => {
    await services.transcripts?.end(job.id, terminal, line);
    return { state: endState(terminal), outcome: line };
  };
  try {
    thread = await threadOf(octokit, job);
    const { config } = await loadRepoConfig(octokit, job.target);
    await recordThreadReply(services, { job, octokit, config }, { topBody: thread.topBody, url: thread.url!, path: thread.path });
    await services.usage.recordStart(installationId, job.id, Date.now());
    dirs = await makeJobDirs(services.dataDir, job.id);
    let diff = "";
    const head = job.review!;
    const prepared = await prepareJob(job, { access: { octokit, token } }, services, dirs, {
      config,
      ref: head.headSha,
      withMirror: async (mirror) => void (diff = await diffBetween(mirror, await mergeBase(mirror, `refs/heads/${head.baseRef}`, head.headSha), head.headSha)),
    });
    const diffText = diff.length > MAX_DIFF_CHARS ? `${diff.slice(0, MAX_DIFF_CHARS)}\n… (cut: the rest of the diff is in the checkout)` : diff;
    const context = [...(await around(prepared.root, thread.path, thread.line, { jobId: job.id, warn: (line) => services.log.warn(line) })), { source: `the diff of pull request #${job.target.number}`, text: diffText }];
    const events = { event: (e: Parameters<NonNullable<typeof services.transcripts>["append"]>[1]) => void services.transcripts?.append(job.id, e) };
    const { result, budget } = await runJobChain(ctx, services, events, withAnswerer(prepared), dirs, { chain: ANSWER_CHAIN, task: task(job, thread), mode: "read-only", context });
    if (budget.costUsd > 0) await services.usage.recordCost(installationId, job.id, budget.costUsd);
    services.metrics.jobUsage(job.kind, budget.usage, budget.costUsd);
    const failed = chainFailure(result, ctx.signal, budget.limits);
    if (failed) throw Object.assign(new Error(headline(failed.terminal)), { terminal: failed.terminal });
    const answer = safeBlock(result.output.trim()).slice(0, MAX_ANSWER_CHARS);
    if (answer === "") throw new Error("the reviewer gave no answer");
    const url = await reply(writer, job, thread, `${answer}\n\n<sub>[Transcript](${link})</sub>`);
    return await end({ kind: "done" }, `✅ Answered in the thread: ${url}`);
  } catch (error) {
    const terminal = (error as { terminal?: Terminal }).terminal ?? failure(error, ctx.signal).terminal;
    services.log.warn(`job ${job.id}: no answer in the review thread: ${headline(terminal)}`);
    // Whoever replied learns there is no answer, and why — also when the thread itself could not be read.
    const place = thread ?? placedThread(job);
    if (place && terminal.kind !== "cancelled") await sayNoAnswer(writer, job, place, headline(terminal), link, services.log);
    return await end(terminal, headline(terminal));
  } finally {
    if (dirs) await cleanJobDirs(dirs).catch(() => undefined);
  }
}
