/**
 * How one input reaches a parser that is not a plain function of a string: the config through a
 * real Octokit (with `@probot/octokit-plugin-config`) whose fetch serves the texts, a model's tool
 * call through the tool's own validation and then what reads its result, a pull request's files
 * through a tree reader. Only the transport is stood in; the parsing is crewbot's own.
 */
import { loadRepoConfig } from "../../src/config/load.js";
import { changedPackages } from "../../src/dependencies/lockfile-changes.js";
import type { TreeReader } from "../../src/dependencies/dependency-reads.js";
import { checkedLearnings } from "../../src/learnings/learner-input.js";
import { renderLearnings } from "../../src/learnings/learnings-file.js";
import { formatTaskList } from "../../src/plan/task-list.js";
import { planOf } from "../../src/plan/plan-result.js";
import { reviewOf } from "../../src/review/review-result.js";
import { renderQuestion } from "../../src/report/render-question.js";
import { buildReview } from "../../src/review/build-review.js";
import { commentablePositions, hunkOf, parseDiff } from "../../src/review/diff-lines.js";
import { withinPullRequest } from "../../src/review/incremental-diff.js";
import { suggestionApplied, suggestionPrint } from "../../src/review/suggestion-applied.js";
import { linesChanged } from "../../src/review/thread-plan.js";
import { selectFiles } from "../../src/review/select-files.js";
import { spliceSummary } from "../../src/summary/body-block.js";
import { renderSummaryBlock } from "../../src/summary/render-summary.js";
import { TOOL_REGISTRY, type ToolName } from "../../src/tools/registry.js";
import { ciFixJob, decideCheckSuite, pullRefusal, type CheckSuitePayload } from "../../src/triggers/check-suite.js";
import { decide, preflight, type CommentPayload } from "../../src/triggers/comment-command.js";
import { decideFixClick, fixFindingsJob, type CheckRunActionPayload } from "../../src/triggers/fix-click.js";
import { decideLabel, labelCommand, type LabelPayload } from "../../src/triggers/label-event.js";
import { threadAnswerJob, threadReplyPreflight, type ThreadReplyPayload } from "../../src/triggers/on-thread-reply.js";
import { validateInput } from "../../src/tools/schema.js";
import type { Submission, ToolContext } from "../../src/tools/types.js";
import type { Candidate } from "../../src/learnings/types.js";
import type { LearningsSubmission } from "../../src/tools/submit-learnings.js";
import type { SummarySubmission } from "../../src/tools/submit-summary.js";
import { TestOctokit } from "../helpers/app-stand-ins.js";

/** The repository's `.github/crewbot.yml` is `own`; every other file it extends to is `other`. */
export async function feedConfig(files: { own: string; extendsTo?: string; other: string }): Promise<unknown> {
  const own = files.extendsTo === undefined ? files.own : `_extends: ${JSON.stringify(files.extendsTo)}\n${files.own}`;
  const fetch = async (url: string | URL) => {
    const path = new URL(url).pathname;
    if (!path.includes("/contents/")) return new Response("{}", { status: 404, headers: { "content-type": "application/json; charset=utf-8" } });
    const text = path.startsWith("/repos/acme/app/") ? own : files.other;
    return new Response(text, { status: 200, headers: { "content-type": "text/plain; charset=utf-8" } });
  };
  const octokit = new TestOctokit({ auth: "token", request: { fetch } });
  return loadRepoConfig(octokit as never, { owner: "acme", repo: "app" });
}

/** A pull request whose dependency files hold these texts (the same blob at every lockfile path). */
export function feedLockfiles(change: { paths: string[]; lock: { base: string; head: string }; manifests: [string, string]; deleted: boolean }): Promise<unknown> {
  const reader = (side: "base" | "head"): TreeReader => ({
    read: async (path) => {
      if (path.endsWith("package.json")) return change.manifests[side === "base" ? 0 : 1];
      if (side === "head" && change.deleted && path === "package-lock.json") return undefined;
      return change.lock[side];
    },
  });
  return changedPackages(change.paths, reader("base"), reader("head"));
}

/** A diff of one new 60-line file, where findings and suggestions can be placed. */
const FILES = parseDiff(`diff --git a/src/a.ts b/src/a.ts\nnew file mode 100644\n--- /dev/null\n+++ b/src/a.ts\n@@ -0,0 +1,60 @@\n${Array.from({ length: 60 }, (_, i) => `+  line ${i + 1}`).join("\n")}\n`);

const CANDIDATES: Candidate[] = ["review:raw sql", "rule:always x"].map((key) => ({ key, source: key.startsWith("rule") ? "rule" : "review", kind: key, paths: [], sightings: [], firstSeen: 0, lastSeen: 0 }) as Candidate);

const CONTEXT = { root: "/nonexistent", mode: "read-only", artifactsDir: "/nonexistent", readRoots: [], scratchDir: "/nonexistent", signal: new AbortController().signal, sandbox: { available: false }, network: false, envAllowlist: {}, questionsAsked: 0 } as ToolContext;

/** What reads a result tool's hand-over next: the review built, the summary spliced, the learnings checked, the plan listed. */
function afterSubmission(final: Submission): unknown {
  if (final.tool === "submit_review") return buildReview(reviewOf({ text: final.text, submission: final }), FILES, selectFiles(FILES));
  if (final.tool === "submit_summary") return spliceSummary("An author's text.", renderSummaryBlock(final.value as SummarySubmission, { headSha: "0123456" }));
  if (final.tool === "submit_learnings") return renderLearnings({ learnings: checkedLearnings(CANDIDATES, final.value as LearningsSubmission).added });
  if (final.tool === "submit_plan") return formatTaskList(planOf({ text: final.text, submission: final }).steps, new Set());
  return final.text;
}

/** A model's tool call: validated as the loop validates it; result tools and `ask_user` run, and what reads their result. */
export async function feedToolCall(call: { tool: ToolName; input: unknown }): Promise<unknown> {
  const entry = TOOL_REGISTRY[call.tool];
  const tool = entry.make("read-only", { available: false });
  const checked = validateInput(tool, call.input);
  if (!checked.ok) return checked.message;
  // File and command tools act on a checkout; their input's checks are what is fuzzed here.
  if (call.tool !== "ask_user" && (!entry.result || call.tool === "complete_step")) return checked.value;
  const result = await tool.run(checked.value, CONTEXT);
  if (result.question) return renderQuestion({ jobId: "job1", asker: "alice", agent: "planner", question: result.question.question, options: result.question.options, expiresAt: 0 });
  return result.final ? afterSubmission(result.final) : result.output;
}

const OWN_APP = { id: 1, slug: "crewbot" };

/** A failed suite: the pure decision, then (as if GitHub confirmed the pull request) the refusal check and the job. */
export function feedCheckSuite(payload: CheckSuitePayload): unknown {
  const decision = decideCheckSuite(payload, OWN_APP);
  if (decision.action !== "verify") return decision;
  const full = `${payload.repository.owner.login}/${payload.repository.name}`;
  const pr = { number: decision.number, state: "open", title: decision.branch, body: null, user: null, head: { ref: decision.branch, sha: payload.check_suite.head_sha, repo: { full_name: full } }, base: { repo: { full_name: full } } };
  return [pullRefusal(pr, payload, ["renovate/**", "dependabot/**"]), ciFixJob(payload, pr, "delivery", 0)];
}

/** A click on "Fix these findings": the decision, then the job a writer's click makes. */
export function feedFixClick(payload: CheckRunActionPayload): unknown {
  const decision = decideFixClick(payload, OWN_APP);
  return decision.action === "check" ? fixFindingsJob(payload, decision.number, "delivery", 0) : decision;
}

/** A comment (issue or review): the preflight, a writer's decision, and a thread reply's job. */
export function feedComment(payload: CommentPayload): unknown {
  const pre = preflight(payload, "crewbot");
  const decided = pre.go ? decide(payload, pre, "write", "delivery", payload.comment.in_reply_to_id === undefined ? "issue_comment" : "review_comment") : pre;
  if (!payload.pull_request) return decided;
  const reply = threadReplyPreflight(payload as ThreadReplyPayload, "crewbot");
  return [decided, reply.go ? threadAnswerJob(payload as ThreadReplyPayload, "delivery", 0) : reply];
}

/** A label added by a writer: which command it is, and the job. */
export function feedLabel(payload: LabelPayload): unknown {
  const kind = labelCommand(payload.label?.name ?? "", { plan: "crewbot:plan", implement: "crewbot:implement" });
  return kind ? decideLabel(payload, kind, "write", "delivery", 0) : kind;
}

/** A pull request's diff, parsed, and what a review reads of it right after. */
export function feedDiff(text: string): unknown {
  const files = parseDiff(text);
  const first = files[0];
  return [commentablePositions(files), first && hunkOf(first, "RIGHT", 3), first && linesChanged(files, first.path, 1, 5), first && suggestionApplied(files, first.path, 1, 3, suggestionPrint("  x\n  y"))];
}

/** An incremental review's two diffs: what of `last..head` is in the pull request's own. */
export function feedDiffPair(pair: { since: string; pullRequest: string }): unknown {
  return withinPullRequest(parseDiff(pair.since), parseDiff(pair.pullRequest));
}
