import { describe, expect, it } from "vitest";
import { spliceSummary, handEdit } from "../../src/summary/body-block.js";
import { diagramLabel, renderDiagram, renderSummaryBlock, SUMMARY_END, SUMMARY_START } from "../../src/summary/render-summary.js";
import { submitSummaryTool, type SummarySubmission } from "../../src/tools/submit-summary.js";
import { NOT_QUADRATIC_MS } from "../helpers/linear-time.js";

const HEAD = "0123456789abcdef0123456789abcdef01234567";
const summary: SummarySubmission = {
  what: "Adds a retry to the webhook queue so that a lost Redis connection does not drop jobs. Closes #12.",
  walkthrough: [
    { files: "src/queue/runner.ts", change: "retries a claim | twice" },
    { files: "test/queue/*", change: "covers the retry\nand its cap" },
  ],
  effort: 3,
  effortReason: "a small change in a concurrent path",
  risks: ["a retry could run a job twice if the first claim succeeded @octocat"],
};
const block = renderSummaryBlock(summary, { headSha: HEAD });

describe("the summary block", () => {
  it("has the markers, a hash line, the what, the walkthrough table, effort and risks", () => {
    const lines = block.split("\n");
    expect(lines[0]).toBe(SUMMARY_START);
    expect(lines[1]).toMatch(/^<!-- crewbot:summary:sha256=[0-9a-f]{64} -->$/);
    expect(lines.at(-1)).toBe(SUMMARY_END);
    expect(block).toContain("| Files | What changed |\n|---|---|\n| src/queue/runner.ts | retries a claim \\| twice |\n| test/queue/* | covers the retry and its cap |");
    expect(block).toContain("**Effort:** 3/5 · a small change in a concurrent path");
    expect(block).toContain("**Risks worth a reviewer's look**\n- a retry could run a job twice");
    // Model text pings no one.
    expect(block).not.toMatch(/(^|[^`])@octocat/);
    expect(block).not.toContain("```mermaid");
    expect(handEdit(block.slice(SUMMARY_START.length, -SUMMARY_END.length))).toBeUndefined();
  });

  it("draws a diagram only when one is given, from crewbot's own ids", () => {
    const withDiagram = renderSummaryBlock({ ...summary, diagram: { participants: ["Webhook", "Queue"], messages: [{ from: "Webhook", to: "Queue", text: "enqueue" }, { from: "Queue", to: "Webhook", text: "ok", reply: true }] } }, { headSha: HEAD });
    expect(withDiagram).toContain("```mermaid\nsequenceDiagram\n  participant p1 as Webhook\n  participant p2 as Queue\n  p1->>p2: enqueue\n  p2-->>p1: ok\n```");
  });
});

describe("renderDiagram", () => {
  it.each<[string, Parameters<typeof renderDiagram>[0], string | undefined]>([
    ["one participant", { participants: ["A"], messages: [{ from: "A", to: "A", text: "x" }] }, undefined],
    ["an unknown sender", { participants: ["A", "B"], messages: [{ from: "C", to: "B", text: "x" }] }, undefined],
    ["no messages", { participants: ["A", "B"], messages: [] }, undefined],
    ["a label of only symbols", { participants: ["A", ";;;"], messages: [{ from: "A", to: ";;;", text: "x" }] }, undefined],
    ["breaking characters", { participants: ["a;b", "c#d"], messages: [{ from: "a;b", to: "c#d", text: "x: y %% z ->> w\nnext" }] }, "sequenceDiagram\n  participant p1 as a b\n  participant p2 as c d\n  p1->>p2: x y z w next"],
  ])("%s", (_name, diagram, expected) => {
    expect(renderDiagram(diagram)).toBe(expected);
  });

  it.each([
    ["Webhook handler", "Webhook handler"],
    ["a;b#c%d:e", "a b c d e"],
    ["A->>B", "A B"],
    ["x".repeat(80), "x".repeat(60)],
  ])("labels %j as %j", (input, out) => expect(diagramLabel(input)).toBe(out));
});

describe("spliceSummary", () => {
  const newer = renderSummaryBlock({ ...summary, effort: 4 }, { headSha: HEAD });
  const edited = block.replace("a small change", "a tiny change");
  it.each<[string, string | null, string, ReturnType<typeof spliceSummary>]>([
    ["an empty body gets the block alone", null, block, { kind: "write", body: block }],
    ["a blank body keeps its spaces: the author's text is never changed", "  \n", block, { kind: "write", body: `  \n\n${block}` }],
    ["a body's trailing spaces are kept", "Fixes #12. \n  ", block, { kind: "write", body: `Fixes #12. \n  \n${block}` }],
    ["a body without the block gets it appended", "Fixes #12.\n\nSee the notes.\n", block, { kind: "write", body: `Fixes #12.\n\nSee the notes.\n\n${block}` }],
    ["crewbot's block is replaced, the text around it kept", `Intro\n\n${block}\n\nOutro`, newer, { kind: "write", body: `Intro\n\n${newer}\n\nOutro` }],
    ["the same block is not written again", `Intro\n\n${block}`, block, { kind: "unchanged" }],
    ["a block with CRLF line endings (a browser edit) is still crewbot's", `Intro\r\n\r\n${block.replace(/\n/g, "\r\n")}\r\nOutro`, newer, { kind: "write", body: `Intro\r\n\r\n${newer}\r\nOutro` }],
    ["an edited block is left alone", `Intro\n\n${edited}`, newer, { kind: "hand-edited", why: "its text differs from what crewbot last wrote there" }],
    ["a block without its hash line is left alone", `${SUMMARY_START}\nmine\n${SUMMARY_END}`, newer, { kind: "hand-edited", why: "the block has no crewbot hash line (it was written or changed by hand)" }],
    ["a start marker without an end is left alone", `Intro\n${SUMMARY_START}\nhalf`, newer, { kind: "hand-edited", why: "the block's end marker `<!-- crewbot:summary:end -->` is missing" }],
  ])("%s", (_name, body, next, expected) => {
    expect(spliceSummary(body, next)).toEqual(expected);
  });

  it("appends to a description of 65,536 characters with a long run of spaces inside, in linear time", () => {
    const body = `a${" ".repeat(65_534)}b`;
    const started = performance.now();
    expect(spliceSummary(body, block, 200_000)).toEqual({ kind: "write", body: `${body}\n\n${block}` });
    expect(performance.now() - started).toBeLessThan(NOT_QUADRATIC_MS);
  });

  it("writes nothing that GitHub's limit would cut, the author's text with it", () => {
    const long = "x".repeat(100);
    expect(spliceSummary(long, block, 150)).toEqual({ kind: "too-long", why: `the description with the summary would be ${(102 + block.length).toLocaleString("en-US")} characters, over GitHub's 150` });
  });
});

describe("submit_summary's input", () => {
  const parse = (input: unknown) => submitSummaryTool.schema.safeParse(input);
  it.each<[string, unknown]>([
    ["effort 0", { ...summary, effort: 0 }],
    ["effort 6", { ...summary, effort: 6 }],
    ["effort 2.5", { ...summary, effort: 2.5 }],
    ["no walkthrough row", { ...summary, walkthrough: [] }],
    ["an empty risk", { ...summary, risks: [" "] }],
    ["a message from no participant", { ...summary, diagram: { participants: ["A", "B"], messages: [{ from: "A", to: "C", text: "x" }] } }],
    ["an unknown key", { ...summary, extra: 1 }],
  ])("refuses %s", (_name, input) => expect(parse(input).success).toBe(false));

  it("accepts a summary with and without a diagram", () => {
    expect(parse(summary).success).toBe(true);
    expect(parse({ ...summary, diagram: { participants: ["A", "B"], messages: [{ from: "A", to: "B", text: "x" }] } }).success).toBe(true);
  });
});
