/**
 * Every parser of untrusted input, in one table: its name, the entry point in `src/` that reads a
 * stranger's bytes, hostile inputs for it, the errors its callers turn into words, and the budget
 * one input must hold — worst wall time and heap growth. `fuzz.test.ts` runs each briefly (part of
 * `npm test`), `npm run fuzz` (`bench/fuzz.ts`) longer, printing the table docs/security.md shows.
 *
 * Budgets are generous (about ten times the worst `npm run fuzz` measured on a loaded machine, never
 * under 250 ms) so a slow CI never fails them; what they catch is a parser that grows worse than
 * linearly or keeps what it should not. The tarball's and the lockfile's follow from their own
 * limits (a reading unpacks up to 100 MB, a review reads up to 64 MB of dependency files).
 */
import { cleanLogTail } from "../../src/context/check-failures.js";
import { cleanText } from "../../src/text/clean-text.js";
import { ticketLinks } from "../../src/mcp/ticket-links.js";
import { ticketReader } from "../../src/mcp/trackers.js";
import { StdioMessages } from "../../src/mcp/stdio.js";
import { checkLearningWords } from "../../src/learnings/learning-words.js";
import { parseLearnings } from "../../src/learnings/learnings-file.js";
import { ruleOf } from "../../src/learnings/rule-reply.js";
import { detectApproval, renderApproved } from "../../src/plan/approval.js";
import { parseDoneMarkers } from "../../src/plan/parse-done.js";
import { parsePlan } from "../../src/plan/parse-plan.js";
import { codeBlock, codeSpan, cutMiddle, safeBlock, safeInline } from "../../src/text/github-markdown.js";
import { linkCitations } from "../../src/report/render-answer.js";
import { parseReview } from "../../src/review/parse-findings.js";
import { isDismissal, threadFindingText } from "../../src/review/thread-plan.js";
import { redact } from "../../src/secrets/redact.js";
import { spliceSummary } from "../../src/summary/body-block.js";
import { parseCommand } from "../../src/triggers/parse-command.js";
import { mentionAsCommand } from "../../src/triggers/parse-mention.js";
import { detectTick } from "../../src/triggers/question-answer.js";
import { compareVersions, versionMeta } from "../../src/dependencies/compare.js";
import { resolveVersion } from "../../src/dependencies/resolve-version.js";
import { readTarball, type PackageContents } from "../../src/dependencies/tarball.js";
import { parseAgentFile } from "../../src/chain/agents.js";
import { parseChainFile } from "../../src/chain/chains.js";
import { parseRule } from "../../src/chain/rules.js";
import { DefinitionError } from "../../src/chain/types.js";
import { ConfigError } from "../../src/config/validate.js";
import { DiffParseError } from "../../src/review/diff-lines.js";
import type { CheckSuitePayload } from "../../src/triggers/check-suite.js";
import type { CommentPayload } from "../../src/triggers/comment-command.js";
import type { CheckRunActionPayload } from "../../src/triggers/fix-click.js";
import type { LabelPayload } from "../../src/triggers/label-event.js";
import { decidePullRequestEnd, decidePullRequestEvent, type PullRequestPayload } from "../../src/triggers/pull-request-event.js";
import { feedCheckSuite, feedComment, feedConfig, feedDiff, feedDiffPair, feedFixClick, feedLabel, feedLockfiles, feedToolCall } from "./entries.js";
import type { FuzzParser } from "./harness.js";
import * as deps from "./inputs-dependencies.js";
import { configFiles, definitionFile } from "./inputs-config.js";
import { diffPair, diffText } from "./inputs-diff.js";
import * as text from "./inputs-text.js";
import { toolCall } from "./inputs-tools.js";
import * as hooks from "./inputs-webhooks.js";
import fc from "fast-check";

const edited = (edit: { from: string; body: string }) => ({
  action: "edited",
  changes: { body: { from: edit.from } },
  comment: { id: 1, body: edit.body, user: { login: "crewbot[bot]", type: "Bot" } },
  issue: { number: 1 },
  installation: { id: 1 },
  sender: { login: "alice", type: "User" },
});

/** The operator's ticket servers the links are matched against: both trackers, a host of the operator's own. */
const TICKET_READERS = [
  { name: "jira", tickets: ticketReader({ tracker: "jira", hosts: ["jira.example.com", "*.corp.example"] }) },
  { name: "linear", tickets: ticketReader({ tracker: "linear" }) },
];

const EMPTY_CONTENTS: PackageContents = { packageJson: {}, files: [], code: new Map(), unreadCode: [], bindingGyp: false, nativeFiles: [] };

export const PARSERS: FuzzParser[] = [
  {
    name: "command",
    entry: "src/triggers/parse-command.ts parseCommand (a comment's body; with the app's slug, mentions)",
    input: fc.record({ body: text.commentBody, slug: fc.option(text.appSlug, { nil: undefined }) }),
    run: ({ body, slug }) => parseCommand(body, slug),
    budget: { ms: 250, heapMb: 64 },
    runs: 80,
  },
  {
    name: "mention",
    entry: "src/triggers/parse-mention.ts mentionAsCommand (a comment's first line)",
    input: fc.record({ line: text.commentBody, slug: text.appSlug }),
    run: ({ line, slug }) => mentionAsCommand(line, slug),
    budget: { ms: 250, heapMb: 64 },
    runs: 80,
  },
  {
    name: "hidden text",
    entry: "src/text/clean-text.ts cleanText (issue and PR bodies, comments, check outputs)",
    input: text.issueText,
    run: (body: string) => cleanText(body),
    budget: { ms: 1_000, heapMb: 64 },
    runs: 60,
  },
  {
    name: "ticket links",
    entry: "src/mcp/ticket-links.ts ticketLinks (an issue's or PR's title and body)",
    input: text.ticketText,
    run: (body: string) => ticketLinks({ title: body.slice(0, 1000), body }, TICKET_READERS),
    budget: { ms: 1_000, heapMb: 64 },
    runs: 60,
  },
  {
    name: "stdio MCP output",
    entry: "src/mcp/stdio.ts StdioMessages (a repository's MCP server's stdout, in chunks)",
    input: fc.record({ out: text.stdioOutput, chunk: fc.integer({ min: 1, max: 70_000 }), max: fc.constantFrom(64 * 1024, 4 * 1024 * 1024) }),
    run: ({ out, chunk, max }) => {
      const reader = new StdioMessages(max);
      const bytes = Buffer.from(out);
      let messages = 0;
      let errors = 0;
      for (let at = 0; at < bytes.length; at += chunk) {
        if (!reader.push(bytes.subarray(at, at + chunk), { message: () => void messages++, error: () => void errors++ })) break;
      }
      return { messages, errors };
    },
    budget: { ms: 1_000, heapMb: 64 },
    runs: 60,
  },
  {
    name: "Actions log",
    entry: "src/context/check-failures.ts cleanLogTail (an Actions job log's last 96 KB)",
    input: fc.record({ log: text.actionsLog, cut: fc.boolean() }),
    run: ({ log, cut }) => cleanLogTail(Buffer.from(log), cut),
    budget: { ms: 1_000, heapMb: 64 },
    runs: 60,
  },
  {
    name: "plan text",
    entry: "src/plan/parse-plan.ts parsePlan, src/plan/parse-done.ts parseDoneMarkers (the model's answers)",
    input: text.planText,
    run: (answer: string) => [parsePlan(answer), parseDoneMarkers(answer, 50)],
    budget: { ms: 10_000, heapMb: 256 },
    runs: 50,
  },
  {
    name: "review text",
    entry: "src/review/parse-findings.ts parseReview (the reviewer's answer in text)",
    input: text.reviewText,
    run: (answer: string) => parseReview(answer),
    budget: { ms: 10_000, heapMb: 256 },
    runs: 50,
  },
  {
    name: "plan approval",
    entry: "src/plan/approval.ts detectApproval, src/triggers/question-answer.ts detectTick (an edited comment's body and its old body)",
    input: text.approvalEdit,
    run: (edit) => {
      const approval = detectApproval(edited(edit), "crewbot");
      return [approval, detectTick(edited(edit), "crewbot"), approval.approved && renderApproved(edit.body, "alice", "job2")];
    },
    budget: { ms: 250, heapMb: 64 },
    runs: 60,
  },
  {
    name: "summary block",
    entry: "src/summary/body-block.ts spliceSummary (a pull request's description)",
    input: text.pullBody,
    run: ({ body, block }) => spliceSummary(body, block),
    budget: { ms: 1_000, heapMb: 64 },
    runs: 60,
  },
  {
    name: "learnings file",
    entry: "src/learnings/learnings-file.ts parseLearnings (.github/crewbot/learnings.md)",
    input: text.learningsFile,
    run: (file: string) => parseLearnings(file),
    budget: { ms: 1_000, heapMb: 64 },
    runs: 60,
  },
  {
    name: "thread replies",
    entry: "src/review/thread-plan.ts isDismissal, threadFindingText, src/learnings/rule-reply.ts ruleOf (replies in crewbot's threads)",
    input: text.threadReply,
    run: (reply: string) => [isDismissal(reply), ruleOf(reply), threadFindingText(reply)],
    budget: { ms: 1_000, heapMb: 64 },
    runs: 60,
  },
  {
    name: "learner words",
    entry: "src/learnings/learning-words.ts checkLearningWords (the learner's words)",
    input: text.threadReply,
    run: (words: string) => checkLearningWords(words),
    budget: { ms: 250, heapMb: 64 },
    runs: 50,
  },
  {
    name: "redaction",
    entry: "src/secrets/redact.ts redact (everything crewbot posts, logs or records)",
    input: text.redactedText,
    run: (said: string) => redact(said, ["an-operator-secret-value"]),
    budget: { ms: 250, heapMb: 64 },
    runs: 50,
  },
  {
    name: "markdown made safe",
    entry: "src/text/github-markdown.ts safeBlock, safeInline, codeSpan, codeBlock, cutMiddle (model text crewbot posts)",
    input: text.markdownText,
    run: (said: string) => [safeBlock(said), safeInline(said), codeSpan(said), codeBlock(said), cutMiddle(said, 65_000, (n) => `(${n} cut)`)],
    budget: { ms: 10_000, heapMb: 256 },
    runs: 50,
  },
  {
    name: "answer citations",
    entry: "src/report/render-answer.ts linkCitations (an /ask answer)",
    input: text.answerText,
    run: (answer: string) => linkCitations(answer, () => undefined, (path) => `https://github.com/a/b/blob/0/${path}`),
    budget: { ms: 250, heapMb: 64 },
    runs: 50,
  },
  {
    name: "git diff",
    entry: "src/review/diff-lines.ts parseDiff (git's diff of the pull request), and what a review reads of it",
    input: diffText,
    run: (diff: string) => feedDiff(diff),
    named: (error) => error instanceof DiffParseError,
    budget: { ms: 1_000, heapMb: 256 },
    runs: 40,
  },
  {
    name: "incremental diff",
    entry: "src/review/incremental-diff.ts withinPullRequest (the diff since the last review against the pull request's)",
    input: diffPair,
    run: (pair) => feedDiffPair(pair),
    named: (error) => error instanceof DiffParseError,
    budget: { ms: 2_000, heapMb: 256 },
    runs: 40,
  },
  {
    name: "pull_request",
    entry: "src/triggers/pull-request-event.ts decidePullRequestEvent, decidePullRequestEnd (a pull_request webhook, closed too)",
    input: hooks.pullRequestPayload,
    run: (payload) => [decidePullRequestEvent(payload as PullRequestPayload, "delivery", 0), decidePullRequestEnd({ ...(payload as PullRequestPayload), action: "closed" }, "delivery", 0)],
    budget: { ms: 250, heapMb: 64 },
    runs: 40,
  },
  {
    name: "check_suite",
    entry: "src/triggers/check-suite.ts decideCheckSuite, pullRefusal, ciFixJob (a check_suite webhook)",
    input: hooks.checkSuitePayload,
    run: (payload) => feedCheckSuite(payload as CheckSuitePayload),
    budget: { ms: 250, heapMb: 64 },
    runs: 40,
  },
  {
    name: "check_run click",
    entry: "src/triggers/fix-click.ts decideFixClick, fixFindingsJob (a check_run requested_action webhook)",
    input: hooks.checkRunPayload,
    run: (payload) => feedFixClick(payload as CheckRunActionPayload),
    budget: { ms: 250, heapMb: 64 },
    runs: 40,
  },
  {
    name: "comment webhook",
    entry: "src/triggers/comment-command.ts preflight, decide; src/triggers/on-thread-reply.ts threadReplyPreflight (issue and review comment webhooks)",
    input: hooks.commentPayload,
    run: (payload) => feedComment(payload as CommentPayload),
    budget: { ms: 250, heapMb: 64 },
    runs: 40,
  },
  {
    name: "label webhook",
    entry: "src/triggers/label-event.ts labelCommand, decideLabel (an issues.labeled webhook)",
    input: hooks.labelPayload,
    run: (payload) => feedLabel(payload as LabelPayload),
    budget: { ms: 250, heapMb: 64 },
    runs: 30,
  },
  {
    name: "YAML config",
    entry: "src/config/load.ts loadRepoConfig (.github/crewbot.yml, through @probot/octokit-plugin-config, and the files it extends)",
    input: configFiles,
    run: (files) => feedConfig(files),
    named: (error) => error instanceof ConfigError,
    budget: { ms: 3_000, heapMb: 256 },
    runs: 40,
  },
  {
    name: "definitions",
    entry: "src/chain/agents.ts parseAgentFile, chains.ts parseChainFile, rules.ts parseRule (frontmatter files of .github/crewbot/)",
    input: definitionFile,
    run: (file: string) => [parseAgentFile, (t: string, f: string) => parseChainFile(t, f, "chain"), parseRule].map((parse) => {
      try {
        return parse(file, ".github/crewbot/agents/x.md");
      } catch (error) {
        if (error instanceof DefinitionError) return error.message;
        throw error;
      }
    }),
    budget: { ms: 1_500, heapMb: 128 },
    runs: 40,
  },
  {
    name: "tool inputs",
    entry: "src/tools/schema.ts validateInput on each tool's schema; submit_review, submit_summary, submit_learnings, submit_plan and ask_user run, and what reads their result",
    input: toolCall,
    run: (call) => feedToolCall(call),
    budget: { ms: 5_000, heapMb: 256 },
    runs: 60,
  },
  {
    name: "tarball",
    entry: "src/dependencies/tarball.ts readTarball (a published npm tarball)",
    input: deps.tarball,
    run: (bytes: Buffer) => readTarball(bytes),
    // A reading unpacks up to 100 MB (TARBALL_LIMITS), ~20 ms a MB of small entries here; the heap
    // figure counts the inflated pieces not yet collected, not only the 40 MB a reading may keep.
    budget: { ms: 10_000, heapMb: 192 },
    runs: 25,
  },
  {
    name: "lockfile",
    entry: "src/dependencies/lockfile-changes.ts changedPackages (a pull request's lockfiles and manifests)",
    input: deps.lockfileChange,
    run: (change) => feedLockfiles(change),
    // One review reads up to 64 MB of dependency files (DETECTION_LIMITS), ~90 ms a MB parsed and
    // compared on a loaded 2-core machine: the whole pass, the loop turning throughout.
    budget: { ms: 10_000, heapMb: 256 },
    // Its hostile inputs take seconds each (tens of MB parsed): few in npm test, more in npm run fuzz.
    runs: 12,
  },
  {
    name: "package document",
    entry: "src/dependencies/resolve-version.ts resolveVersion, compare.ts versionMeta and compareVersions (a registry's package document)",
    input: deps.packageDocument,
    run: ({ document, asked, source }) => {
      const resolved = resolveVersion({ version: asked }, source, document);
      const newMeta = versionMeta(document, "1.0.0");
      return [resolved, versionMeta(document, asked), compareVersions({ name: "a", new: EMPTY_CONTENTS, oldMeta: newMeta, newMeta, now: 0 })];
    },
    budget: { ms: 1_000, heapMb: 128 },
    runs: 15,
  },
  {
    name: "code signals",
    entry: "src/dependencies/compare.ts compareVersions (two versions' package.json and code, read from their tarballs)",
    input: deps.versionPair,
    run: ({ old, now, publishedAt }) => compareVersions({ name: "a", ...(old ? { old } : {}), new: now, newMeta: { maintainers: [], publishedAt }, now: 0 }),
    budget: { ms: 1_000, heapMb: 128 },
    runs: 25,
  },
];
