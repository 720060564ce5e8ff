/**
 * Text inputs: comments and descriptions people write, the model's answers, Actions logs, the
 * learnings file, thread replies. Each is hostile text mixed with the syntax its parser looks for.
 */
import fc from "fast-check";
import { formatTaskList } from "../../src/plan/task-list.js";
import { renderQuestion } from "../../src/report/render-question.js";
import { APPROVE_LINE_CHECKED, APPROVE_LINE_UNCHECKED } from "../../src/plan/approval.js";
import { renderSummaryBlock } from "../../src/summary/render-summary.js";
import { anyText, hostileText, lengthNear } from "./hostile.js";

/** GitHub's longest comment or description, in characters. */
export const GITHUB_BODY = 65_536;

/** A comment body: commands and mentions on its first line, or anywhere. */
export const commentBody = hostileText({
  max: 70_000,
  caps: [20_000, GITHUB_BODY],
  tokens: ["/plan", "/implement", "/review", "/review full", "/ask", "/crewbot", "/crewbot help", "/answer", "cancel", "learnings", "@crewbot", "@crewbot[bot]", "@Crewbot,", "/"],
});

/** A slug the app may have (GitHub's own is well formed; the parser is still given odd ones). */
export const appSlug = fc.oneof({ weight: 4, arbitrary: fc.constantFrom("crewbot", "crew-bot", "crewbot[bot]") }, { weight: 1, arbitrary: anyText(20) });

/** Issue and comment text that reaches the model after cleaning: hidden-text carriers. */
export const issueText = hostileText({
  max: 110_000,
  caps: [GITHUB_BODY, 100_000],
  tokens: ["<!--", "-->", "![", "](", "[x]: http://a ", " \"title\"", " 'title'", " (title)", " alt=", " title=\"", " data-x=", "&#x200b;", "&#64;", "&#", ";", "<img src=x alt=\"", "\u200d"],
});

/** An issue's title and body linking tickets: links whole, cut, in code, hidden, on odd hosts. */
export const ticketText = hostileText({
  max: 70_000,
  caps: [20_000, GITHUB_BODY],
  tokens: ["https://acme.atlassian.net/browse/ABC-1", "https://", ".atlassian.net", "/browse/", "ABC-", "https://linear.app/w/issue/ENG-2/", "\n```\n", "`", "<!--", "@", ":8443", "ａ", " ", "\n", ")", "](", "<"],
});

/** What a repository's stdio MCP server writes on its stdout: JSON-RPC lines, and anything else. */
export const stdioOutput = hostileText({
  max: 300_000,
  caps: [64 * 1024],
  tokens: ['{"jsonrpc":"2.0","id":1,"result":{}}\n', '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}\n', '{"jsonrpc":"2.0","id":', "\n", "\r\n", "{", "[", '"', "\\u0000", "\u2028", "ａ", "null\n"],
});

/** An Actions job log's tail, as it streams: timestamps, group markers, ANSI codes, CRLF. */
export const actionsLog = hostileText({
  max: 100 * 1024,
  caps: [20_000, 96 * 1024],
  tokens: ["2024-05-01T10:00:00.1234567Z ", "##[group]", "##[endgroup]", "##[error]", "##[warning]", "##[command]", "\u001b[31m", "\u001b[0m", "\u001b]8;;http://x\u0007", "\u001b[", "\r\n", "<!--", "![", "["],
});

/** `head` then one line repeated past the 120 000 arguments a spread call holds (a long list, a long log). */
const manyLinesAfter = (heads: readonly string[], lines: readonly string[]) =>
  fc.record({ head: fc.constantFrom(...heads), line: fc.constantFrom(...lines), times: lengthNear(170_000, [150_000]) }).map(({ head, line, times }) => `${head}${line.repeat(times)}`);

/** A planner's answer in text: headings, numbered steps, fences, emphasis, `[DONE:n]` markers. */
const planMarkdown = hostileText({
  max: 200_000,
  caps: [10_000],
  tokens: ["## Plan", "# Implementation plan\n", "Plan:", "**Plan:**", "## Goal", "## Files to Modify", "## Risks", "## Steps", "\n1. ", "\n2) ", "\n- ", "\n    ", "```", "~~~", "**", "__", "[DONE:1]", "[ done : 2 ]", "`src/a.ts`", "None."],
});

export const planText = fc.oneof({ weight: 5, arbitrary: planMarkdown }, { weight: 2, arbitrary: manyLinesAfter(["## Goal\n", "## Risks\n"], ["  x\n", "x\n\n"]) });

/** A reviewer's answer in text: severity headings, `path:line` bullets, suggestion blocks. */
const reviewMarkdown = hostileText({
  max: 200_000,
  caps: [10_000],
  tokens: ["## Critical", "## Warnings", "## Suggestions", "## Summary", "Critical:", "\n- src/a.ts:12 - ", "\n- `src/a.ts:1-9` — ", "**src/b.ts:3**", ":L4", "```suggestion\n", "````suggestion", "\n```\n", "\n  ", "None.", "No issues found."],
});

export const reviewText = fc.oneof({ weight: 5, arbitrary: reviewMarkdown }, { weight: 2, arbitrary: manyLinesAfter(["## Warnings\n- src/a.ts:1 - x\n", "## Summary\n"], ["   more\n", "  more\n\n"]) });

/** `.github/crewbot/learnings.md`: bullets, continuations, markers, fences. */
const learningsMarkdown = hostileText({
  max: 70_000,
  caps: [32 * 1024],
  tokens: ["\n- ", "\n* ", "\n+ ", "\n  ", "  ", " <!-- crewbot:learning:0123abcd -->", "<!--crewbot:learning:", "\n```", "\n~~~", "# crewbot learnings\n"],
});

/** A bullet whose text holds a long run of spaces or tabs, with or without crewbot's marker after it. */
const spacedBullet = fc
  .record({ unit: fc.constantFrom(" ", "\t", " \t"), times: lengthNear(65_000, [32 * 1024]), marker: fc.constantFrom("", " <!-- crewbot:learning:0123abcd -->", "<!--") })
  .map(({ unit, times, marker }) => `# crewbot learnings\n\n- a${unit.repeat(Math.floor(times / unit.length))}b${marker}\n`);

export const learningsFile = fc.oneof({ weight: 4, arbitrary: learningsMarkdown }, { weight: 1, arbitrary: spacedBullet });

/** A reply in one of crewbot's threads: dismissals, rules, quotes, emphasis. */
const replyText = hostileText({
  max: 70_000,
  caps: [GITHUB_BODY],
  tokens: ["won't fix", "false positive", "by design", "we always ", "please don't ", "never mind", "> ", "**", "_", "’", "`", ".", "!", ":"],
});

/** A rule's or a dismissal's opening, then a long run of the punctuation and space a kind is trimmed of. */
const openingThenRun = fc
  .record({ opening: fc.constantFrom("we always ", "never ", "won't fix", "> q\n", "**Prefer** "), unit: fc.constantFrom(".", " .", "!", ", ", ":", " "), times: lengthNear(65_000, [60_000]), end: fc.constantFrom("", "x", ".") })
  .map(({ opening, unit, times, end }) => `${opening}x${unit.repeat(Math.floor(times / unit.length))}${end}`);

export const threadReply = fc.oneof({ weight: 4, arbitrary: replyText }, { weight: 1, arbitrary: openingThenRun });

/** Text crewbot's redaction scans: token shapes, their prefixes, PEM headers that never end. */
export const redactedText = hostileText({
  max: 70_000,
  caps: [GITHUB_BODY],
  tokens: ["ghs_", "ghp_", "github_pat_", "sk-ant-", "AKIA", "xoxb-", "glpat-", "npm_", "Bearer ", "Basic ", "-----BEGIN ", "-----BEGIN RSA PRIVATE KEY-----", "PRIVATE KEY-----", "-----END ", "A", "a1"],
});

/** Model text that crewbot makes safe before posting it: code spans, fences, mentions, HTML. */
const markdownSaid = hostileText({
  max: 140_000,
  caps: [65_000],
  tokens: ["`", "``", "\n```", "\n````", "\n~~~", "<!--", "<b>", "</", "<?", "@user", "&#64;", "\n- [ ] ", "> - [x] ", "\\`", "https://x/"],
});

export const markdownText = fc.oneof({ weight: 5, arbitrary: markdownSaid }, { weight: 1, arbitrary: manyLinesAfter(["", "x\n"], ["```\n", "````~\n", "`a", "<!--\n"]) });

/** An `/ask` answer with citations (`path#L10-L14`) in text, links and code. */
export const answerText = hostileText({
  max: 70_000,
  caps: [GITHUB_BODY],
  tokens: ["src/a.ts#L1", "#L10-L14", "#L9999999-L1", "./src/b.ts#L2", "](src/a.ts#L3)", "../x#L1", "`", "\n```\n", " ", "(", "/"],
});

/** A summary block as crewbot renders it (its hash matching), to splice into a description. */
const SUMMARY_BLOCK = renderSummaryBlock(
  { what: "Adds a cache.", walkthrough: [{ files: "src/cache.ts", change: "new" }], effort: 2, effortReason: "small", risks: [] },
  { headSha: "0123456789abcdef0123456789abcdef01234567" },
);

/** A PR description, sometimes holding crewbot's block (whole, cut or edited), and the new block. */
export const pullBody = fc.record({
  before: hostileText({ max: 70_000, caps: [GITHUB_BODY], tokens: ["<!-- crewbot:summary:start -->", "<!-- crewbot:summary:end -->", "<!-- crewbot:summary:sha256=", "\r\n", "Closes #12"] }),
  block: fc.constantFrom("", SUMMARY_BLOCK, SUMMARY_BLOCK.replace("Adds", "Edits"), SUMMARY_BLOCK.slice(0, 80), SUMMARY_BLOCK.replace(/\n/g, "\r\n")),
  after: hostileText({ max: 2_000, tokens: ["<!-- crewbot:summary:end -->", " ", "\n"] }),
}).map(({ before, block, after }) => ({ body: `${before}${block}${after}`, block: SUMMARY_BLOCK }));

/** The job marker and plan comment crewbot posts, ticked by someone, with hostile steps and edits. */
export const approvalEdit = fc
  .record({
    steps: fc.array(hostileText({ max: 3_000, tokens: ["<!--", "@x", "`", "&lt;", "1. ", "# ", "- [ ] "] }), { minLength: 1, maxLength: 60 }),
    goal: hostileText({ max: 5_000, tokens: ["## Plan", "```", "\n"] }),
    ticked: fc.constantFrom(APPROVE_LINE_CHECKED, APPROVE_LINE_UNCHECKED, "- [X] Approve this plan and implement it", ""),
    crlf: fc.boolean(),
    question: fc.boolean(),
    options: fc.array(hostileText({ max: 500 }), { maxLength: 20 }),
    tick: fc.nat(30),
  })
  .map(({ steps, goal, ticked, crlf, question, options, tick }) => {
    const eol = crlf ? "\r\n" : "\n";
    if (question) {
      const before = renderQuestion({ jobId: "job1", asker: "a", agent: "planner", question: goal, options, expiresAt: 0 });
      const lines = before.split("\n");
      const at = lines.findIndex((l, i) => l.startsWith("- [ ] ") && i >= tick % Math.max(1, lines.length));
      if (at >= 0) lines[at] = lines[at]!.replace("- [ ] ", "- [x] ");
      return { from: before, body: lines.join(eol) };
    }
    const plan = formatTaskList(steps.map((text, i) => ({ n: i + 1, text })), new Set());
    const lines = ["✅ Done in 1 min", "<!-- crewbot:job:job1 -->", "", goal, "", "## Plan", plan, "", "## Risks", "none"];
    const from = [...lines, "", APPROVE_LINE_UNCHECKED].join("\n");
    return { from, body: [...lines, "", ticked].join(eol) };
  });
