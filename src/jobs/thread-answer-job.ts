/**
 * An answer in a thread of one of crewbot's review comments (DESIGN.md §1): the reviewer, read-only,
 * reads the thread, the file around the commented line and the PR's diff, and its reply is posted in
 * that thread (its surface: jobs/thread-reply-surface.ts). No progress comment: the answer, or the
 * reason there is none, is the reply.
 */
import type { ContextSection } from "../text/prompt.js";
import type { AgentDefinition, ChainDefinition } from "../chain/types.js";
import { loadRepoConfig } from "../config/load.js";
import { cleanText } from "../text/clean-text.js";
import type { InstallationOctokit } from "../github/types.js";
import type { JobContext, JobResult } from "../queue/runner.js";
import type { JobRecord } from "../queue/types.js";
import { safeBlock } from "../text/github-markdown.js";
import { notReadable, readConfined, type ReadLog } from "../workspace/confined-read.js";
import { diffBetween, mergeBase } from "../workspace/diff.js";
import { chainFailure } from "./outcome.js";
import { inOpenFrame, runJobChain } from "./job-frame.js";
import { limitEnding } from "./spend-check.js";
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
 * The reviewer under a name of its own, playing the answerer's role: a reviewer's step is read as a
 * review, and an answer is prose. Same prompt, tools and model (`models.reviewer` counts).
 */
export const ANSWERER = "reviewer-in-thread";
export const ANSWER_CHAIN: ChainDefinition = { name: "thread-answer", steps: [{ agent: ANSWERER, task: "{task}" }], file: "(built in: answers in review threads)" };

function withAnswerer(prepared: Prepared): Prepared {
  const reviewer = prepared.agents.get("reviewer");
  if (!reviewer) throw new Error("no reviewer agent is defined");
  const model = prepared.policy.models.reviewer ?? reviewer.model;
  const answerer: AgentDefinition = { ...reviewer, name: ANSWERER, role: "answerer", ...(model ? { model } : {}) };
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

export async function runThreadAnswer(job: JobRecord, ctx: JobContext, services: JobServices): Promise<JobResult> {
  return inOpenFrame(job, ctx, services, async ({ report, access, begin }) => {
    const thread = await threadOf(access.octokit, job);
    const { config } = await loadRepoConfig(access.octokit, job.target);
    await recordThreadReply(services, { job, octokit: access.octokit, config }, { topBody: thread.topBody, url: thread.url!, path: thread.path });
    const begun = await begin(config);
    if ("limit" in begun) return report.finish(limitEnding(begun.limit));
    let diff = "";
    const head = job.review!;
    const prepared = await prepareJob(job, { access }, services, begun.dirs, {
      config,
      ref: head.headSha,
      withMirror: async (mirror) => void (diff = await diffBetween(mirror, await mergeBase(mirror, `refs/heads/${head.baseRef}`, head.headSha), head.headSha)),
    });
    const diffText = diff.length > MAX_DIFF_CHARS ? `${diff.slice(0, MAX_DIFF_CHARS)}\n… (cut: the rest of the diff is in the checkout)` : diff;
    const context = [...(await around(prepared.root, thread.path, thread.line, { jobId: job.id, warn: (line) => services.observe.log.warn(line) })), { source: `the diff of pull request #${job.target.number}`, text: diffText }];
    const { result, budget } = await runJobChain(ctx, services, report, withAnswerer(prepared), begun.dirs, { chain: ANSWER_CHAIN, task: task(job, thread), context });
    const failed = chainFailure(result, ctx.signal, budget.limits);
    if (failed) return report.finish(failed);
    const answer = safeBlock(result.output.trim()).slice(0, MAX_ANSWER_CHARS);
    if (answer === "") throw new Error("the reviewer gave no answer");
    return report.finish({ terminal: { kind: "done" }, patch: { answer } });
  });
}
