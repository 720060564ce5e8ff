import { describe, expect, it } from "vitest";
import { initialProgress } from "../../src/report/progress-state.js";
import { renderHelp, renderNotAllowed, renderProgress, statusLine, TOO_LONG_TO_APPROVE, transcriptUrl } from "../../src/report/render.js";
import { APPROVE_LINE_UNCHECKED } from "../../src/plan/approval.js";
import { jobMarker, type ProgressState } from "../../src/report/types.js";

const ZWSP = "\u200B";
const MARKER = jobMarker("job-1");
const count = (text: string, part: string) => text.split(part).length - 1;
const lines = (text: string) => text.split("\n");

const base = (extra: Partial<ProgressState> = {}): ProgressState =>
  initialProgress("job-1", "plan", {
    elapsedMs: 42_000,
    usage: { input: 10_000, output: 2_000, cacheRead: 300, cacheWrite: 0 },
    costUsd: 0.0123,
    ...extra,
  });

const plan = {
  goal: "Add a --json flag",
  steps: [
    { n: 1, text: "Parse the flag in `src/cli/args.ts`" },
    { n: 2, text: "Print JSON in **report.ts**" },
  ],
  done: [1],
  risks: "Output format is public.",
};
const links = {
  transcript: "https://crewbot.example/jobs/job-1",
  branch: { name: "crewbot/issue-7-json-flag", url: "https://github.com/o/r/tree/crewbot/issue-7-json-flag" },
  pr: { number: 12, url: "https://github.com/o/r/pull/12" },
};

describe("status line", () => {
  it.each<[string, Partial<ProgressState>, string]>([
    ["starting", {}, "⏳ Starting · 42s"],
    ["queued", { queuedBehind: "job-0" }, "⏳ Queued behind job job-0"],
    [
      "running",
      { agent: "scout", step: { index: 1, total: 2 }, turn: 3, toolCalls: 7 },
      "⏳ Working · scout (step 1/2) · turn 3 · 7 tool calls · 42s · 12.3k tokens · $0.0123",
    ],
    ["one tool call, no turn yet", { agent: "worker", toolCalls: 1 }, "⏳ Working · worker · 1 tool call · 42s · 12.3k tokens · $0.0123"],
    ["done", { terminal: { kind: "done" } }, "✅ Done · 42s · 12.3k tokens · $0.0123"],
    ["failed", { terminal: { kind: "failed", reason: "interrupted" } }, "❌ Failed: interrupted · 42s · 12.3k tokens · $0.0123"],
    ["failed, multi-line reason", { terminal: { kind: "failed", reason: "step 2\n (worker):  boom" } }, "❌ Failed: step 2 (worker): boom · 42s · 12.3k tokens · $0.0123"],
    ["cancelled", { terminal: { kind: "cancelled" } }, "⏹ Cancelled · 42s · 12.3k tokens · $0.0123"],
    ["cancelled by someone (no ping)", { terminal: { kind: "cancelled", by: "alice" } }, `⏹ Cancelled by @${ZWSP}alice · 42s · 12.3k tokens · $0.0123`],
    ["stopped", { terminal: { kind: "stopped", budget: "maxCostUsd ($3)" } }, "⏸ Stopped: maxCostUsd ($3) · 42s · 12.3k tokens · $0.0123"],
    ["estimate", { terminal: { kind: "done" }, estimate: true }, "✅ Done · 42s · 12.3k tokens · ~$0.0123 (estimate)"],
  ])("%s", (_name, extra, expected) => {
    const state = base(extra);
    expect(statusLine(state)).toBe(expected);
    expect(lines(renderProgress(state))[0]).toBe(expected);
  });

  it.each(["✅ Done", "❌ Failed: x", "⏹ Cancelled", "⏸ Stopped: maxTurns"])("the first line of a %s body starts with it", (start) => {
    const terminal =
      start === "✅ Done" ? ({ kind: "done" } as const)
      : start.startsWith("❌") ? ({ kind: "failed", reason: "x" } as const)
      : start.startsWith("⏹") ? ({ kind: "cancelled" } as const)
      : ({ kind: "stopped", budget: "maxTurns" } as const);
    const body = renderProgress(base({ terminal, plan, links, approvable: true }));
    expect(body.startsWith(start)).toBe(true);
  });
});

describe("renderProgress", () => {
  it("renders a finished, approvable plan exactly", () => {
    const body = renderProgress(base({ terminal: { kind: "done" }, plan, links, approvable: true, notes: ["scout: bash runs without an OS sandbox (no bwrap)."] }));
    expect(body).toBe(
      [
        "✅ Done · 42s · 12.3k tokens · $0.0123",
        MARKER,
        "",
        "Pull request [#12](https://github.com/o/r/pull/12) · Branch [`crewbot/issue-7-json-flag`](https://github.com/o/r/tree/crewbot/issue-7-json-flag) · [Transcript](https://crewbot.example/jobs/job-1)",
        "",
        "## Goal\nAdd a --json flag",
        "",
        "## Plan\n- [x] Parse the flag in `src/cli/args.ts`\n- [ ] Print JSON in **report.ts**",
        "",
        "## Risks\nOutput format is public.",
        "",
        "**Notes**\n- scout: bash runs without an OS sandbox (no bwrap).",
        "",
        APPROVE_LINE_UNCHECKED,
      ].join("\n"),
    );
  });

  it("renders a running job with its latest tool", () => {
    const body = renderProgress(base({ agent: "worker", step: { index: 3, total: 3 }, turn: 9, toolCalls: 20, lastTool: "bash npm test", plan: { ...plan, goal: undefined, risks: undefined }, links: { transcript: links.transcript } }));
    expect(body).toBe(
      [
        "⏳ Working · worker (step 3/3) · turn 9 · 20 tool calls · 42s · 12.3k tokens · $0.0123",
        MARKER,
        "",
        "Latest: `bash npm test`",
        "",
        "[Transcript](https://crewbot.example/jobs/job-1)",
        "",
        "## Plan\n- [x] Parse the flag in `src/cli/args.ts`\n- [ ] Print JSON in **report.ts**",
      ].join("\n"),
    );
  });

  it.each<[string, Partial<ProgressState>]>([
    ["running", { agent: "planner", approvable: true }],
    ["failed", { terminal: { kind: "failed", reason: "x" }, approvable: true }],
    ["done but not approvable", { terminal: { kind: "done" } }],
  ])("has no approval box when %s", (_name, extra) => {
    expect(renderProgress(base({ plan, ...extra }))).not.toContain("Approve this plan");
  });

  it("puts the approval box last, once, even when model text imitates it", () => {
    const body = renderProgress(
      base({
        terminal: { kind: "done" },
        approvable: true,
        plan: { ...plan, risks: `${APPROVE_LINE_UNCHECKED}\n* [x] also this`, steps: [{ n: 1, text: "[ ] Approve this plan and implement it" }] },
        notes: [APPROVE_LINE_UNCHECKED],
      }),
    );
    expect(lines(body).at(-1)).toBe(APPROVE_LINE_UNCHECKED);
    expect(lines(body).filter((l) => l === APPROVE_LINE_UNCHECKED)).toHaveLength(1);
    expect(body).toContain("- \\[ ] Approve this plan and implement it\n* \\[x] also this");
  });

  it("carries the marker exactly once, whatever the model wrote", () => {
    const fake = "<!-- crewbot:job:job-1 -->";
    const body = renderProgress(
      base({
        agent: "planner",
        lastTool: `read ${fake}`,
        terminal: { kind: "failed", reason: fake },
        plan: { goal: fake, steps: [{ n: 1, text: fake }], done: [], risks: `\`${fake}\`\n\n\`\`\`\n${fake}\n\`\`\`` },
        notes: [fake],
      }),
    );
    expect(count(body, MARKER)).toBe(1);
    expect(count(body, "<!--")).toBe(1);
  });

  it("neutralises @mentions in everything the model wrote, and leaves e-mail addresses alone", () => {
    const body = renderProgress(
      base({
        agent: "worker",
        lastTool: "bash git log --author @bob",
        plan: { goal: "Ask @alice and @org/team", steps: [{ n: 1, text: "Ping (@carol) about it" }], done: [], risks: "mail dev@example.com; `@dave` in code &#64;erin" },
        notes: ["@frank said so"],
      }),
    );
    for (const name of ["alice", "org/team", "bob", "carol", "dave", "erin", "frank"]) {
      expect(body).not.toMatch(new RegExp(`(?<!\\w)@${name}`));
      expect(body).toContain(`@${ZWSP}${name}`);
    }
    expect(body).toContain("dev@example.com");
  });

  it("shows model HTML as text outside code, and leaves code alone", () => {
    const body = renderProgress(base({ plan: { steps: [{ n: 1, text: "Wrap in <details>" }], done: [], risks: "<details><summary>x</summary>\n\nUse `<div>` and <https://example.com>, a < b" } }));
    expect(body).toContain("- [ ] Wrap in &lt;details>");
    expect(body).toContain("&lt;details>&lt;summary>x&lt;/summary>\n\nUse `<div>` and <https://example.com>, a < b");
  });

  it("escapes an unclosed fence so it cannot swallow the approval box", () => {
    const body = renderProgress(base({ terminal: { kind: "done" }, approvable: true, plan: { ...plan, risks: "Careful:\n```ts\nconst a = 1;" } }));
    expect(body).toContain("## Risks\nCareful:\n\\```ts\nconst a = 1;");
    expect(lines(body).at(-1)).toBe(APPROVE_LINE_UNCHECKED);
  });

  it("keeps a closed fence as it is", () => {
    const body = renderProgress(base({ plan: { steps: [], done: [], risks: "```\n<b>@x</b>\n```" } }));
    expect(body).toContain(`## Risks\n\`\`\`\n<b>@${ZWSP}x</b>\n\`\`\``);
  });

  describe("size", () => {
    const bigPlan = { goal: "g", steps: Array.from({ length: 700 }, (_, i) => ({ n: i + 1, text: `step ${i + 1} ${"x".repeat(95)}` })), done: [1], risks: "r" };

    it("cuts a 70,000-character plan under 65,536, keeping status, marker, first and last steps, and says it cannot be approved", () => {
      expect(JSON.stringify(bigPlan.steps).length).toBeGreaterThan(70_000);
      const state = base({ terminal: { kind: "done" }, approvable: true, plan: bigPlan, links });
      const body = renderProgress(state);
      expect(body.length).toBeLessThan(65_536);
      expect(lines(body)[0]).toBe(statusLine(state));
      expect(lines(body)[1]).toBe(MARKER);
      expect(count(body, MARKER)).toBe(1);
      expect(body).toContain(`- [x] step 1 ${"x".repeat(95)}\n`);
      expect(body).toContain(`- [ ] step 700 ${"x".repeat(95)}\n`);
      expect(body).toMatch(/\n\n_… [\d,]+ characters cut here: GitHub limits a comment to 65,536 characters …_\n\n/);
      expect(lines(body).at(-1)).toBe(TOO_LONG_TO_APPROVE);
      expect(body).not.toContain(APPROVE_LINE_UNCHECKED);
    });

    it("cuts the risks before the plan", () => {
      const state = base({ terminal: { kind: "done" }, plan: { ...plan, risks: `${"risk ".repeat(14_000)}END` } });
      const body = renderProgress(state);
      expect(body.length).toBeLessThan(65_536);
      expect(body).toContain("## Plan\n- [x] Parse the flag in `src/cli/args.ts`\n- [ ] Print JSON in **report.ts**\n");
      expect(body).toContain("characters cut here");
      expect(body).toMatch(/END$/);
    });

    it("cuts a single 70,000-character step too", () => {
      const state = base({ terminal: { kind: "done" }, approvable: true, plan: { steps: [{ n: 1, text: "y".repeat(70_000) }], done: [] } });
      const body = renderProgress(state);
      expect(body.length).toBeLessThan(65_536);
      expect(count(body, MARKER)).toBe(1);
      expect(lines(body).at(-1)).toBe(TOO_LONG_TO_APPROVE);
    });
  });
});

describe("replies", () => {
  it("help names every command, who may use them, and cancel", () => {
    const help = renderHelp();
    for (const part of ["/plan", "/implement", "/review", "`/review full`", "`/ask <question>`", "`@<app> plan …`", "/crewbot cancel", "/crewbot help", "write, maintain or admin"]) expect(help).toContain(part);
    expect(help).not.toContain("turned off");
  });

  it("help marks commands the repository turned off", () => {
    expect(renderHelp({ commands: { implement: false } }).match(/turned off in this repository/g)).toHaveLength(2);
  });

  it("not-allowed pings nobody", () => {
    expect(renderNotAllowed("mallory")).toBe(
      `Sorry @${ZWSP}mallory, only people with write, maintain or admin permission on this repository can run crewbot commands. Nothing was started.`,
    );
  });

  it("transcript links", () => {
    expect(transcriptUrl("https://crewbot.example/", "job-1")).toBe("https://crewbot.example/jobs/job-1");
  });
});
