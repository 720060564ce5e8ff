import type Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import {
  compactedMessages,
  contextTokens,
  estimateTokens,
  findCut,
  pruneToolOutputs,
  renderTranscript,
} from "../../src/agent/compaction.js";

type Msg = Anthropic.MessageParam;
const describe_ = (_tool: string, input: unknown) => (input as { path: string }).path;

const prompt: Msg = { role: "user", content: [{ type: "text", text: "the task" }] };
/** One turn: an assistant message reading `path`, and the user message with its output. */
const turn = (n: number, output: string, path = `src/f${n}.ts`): Msg[] => [
  { role: "assistant", content: [{ type: "tool_use", id: `t${n}`, name: "read", input: { path } }] },
  { role: "user", content: [{ type: "tool_result", tool_use_id: `t${n}`, content: output }] },
];
const conversation = (outputs: string[]): Msg[] => [prompt, ...outputs.flatMap((o, i) => turn(i, o))];
const resultOf = (m: Msg) => ((m.content as Anthropic.ToolResultBlockParam[])[0]!.content as string);

describe("contextTokens / estimateTokens", () => {
  it("adds every input kind and the output", () => {
    expect(contextTokens({ input: 10, output: 5, cacheRead: 100, cacheWrite: 20 })).toBe(135);
  });
  it.each([
    ["", 0],
    ["abcd", 1],
    ["abcde", 2],
  ])("estimates %j as %i tokens", (text, tokens) => expect(estimateTokens(text)).toBe(tokens));
});

describe("pruneToolOutputs", () => {
  const big = "x".repeat(12 * 1024);
  it.each<[string, string[], number, string[]]>([
    ["nothing old enough", [big, big], 2, [big, big]],
    ["stubs outputs older than the last two turns", [big, big, big, big], 2, [
      "[output pruned: read src/f0.ts, 12 KB]",
      "[output pruned: read src/f1.ts, 12 KB]",
      big,
      big,
    ]],
    ["keepTurns 1", [big, big], 1, ["[output pruned: read src/f0.ts, 12 KB]", big]],
    ["leaves outputs shorter than their stub", ["ok", big, big], 2, ["ok", big, big]],
  ])("%s", (_name, outputs, keepTurns, expected) => {
    const messages = conversation(outputs);
    const before = JSON.stringify(messages);
    const { messages: out, pruned } = pruneToolOutputs(messages, { keepTurns, describe: describe_ });
    expect(out.filter((m) => m.role === "user").slice(1).map(resultOf)).toEqual(expected);
    expect(pruned).toBe(expected.filter((e) => e.startsWith("[output pruned")).length);
    expect(JSON.stringify(messages)).toBe(before); // pure
    // Pairing untouched: same ids, same roles.
    expect(out.map((m) => m.role)).toEqual(messages.map((m) => m.role));
  });

  it("does not stub a stub again", () => {
    const once = pruneToolOutputs(conversation(["y".repeat(5000), "b", "c"]), { keepTurns: 1, describe: describe_ });
    const twice = pruneToolOutputs(once.messages, { keepTurns: 1, describe: describe_ });
    expect(twice.pruned).toBe(0);
    expect(resultOf(twice.messages[2]!)).toBe("[output pruned: read src/f0.ts, 5 KB]");
  });
});

describe("findCut", () => {
  const small = conversation(["a", "b", "c", "d"]); // assistant messages at 1, 3, 5, 7
  it.each<[string, Msg[], number, number | undefined]>([
    ["keeps the last two turns when they fit", small, 10_000, 5],
    ["keeps only the newest turn when two do not fit", conversation(["a", "b", "x".repeat(4000), "y".repeat(4000)]), 1500, 7],
    ["keeps the newest turn even when it alone does not fit", conversation(["a", "b", "c", "y".repeat(40_000)]), 10, 7],
    ["nothing to summarise with a single turn", conversation(["a"]), 10_000, undefined],
    ["two turns: summarises the first", conversation(["a", "b"]), 10_000, 3],
  ])("%s", (_name, messages, maxRecentTokens, expected) => {
    const cut = findCut(messages, { maxRecentTokens });
    expect(cut).toBe(expected);
    if (cut !== undefined) expect(messages[cut]!.role).toBe("assistant"); // tool_use stays with its tool_result
  });
});

describe("compactedMessages", () => {
  it("puts prompt, summary and file lists first, then the recent turns", () => {
    const recent = turn(7, "out");
    const out = compactedMessages({ prompt: "the task", summary: "did A, B", filesRead: ["a.ts", "b.ts"], filesChanged: ["c.ts"], recent });
    expect(out.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    const text = ((out[0]!.content as Anthropic.TextBlockParam[])[0]!).text;
    expect(text.startsWith("the task\n")).toBe(true);
    expect(text).toContain("did A, B");
    expect(text).toContain("Files read so far:\n- a.ts\n- b.ts");
    expect(text).toContain("Files modified so far:\n- c.ts");
    expect(out.slice(1)).toEqual(recent);
  });

  it("says (none) for empty file lists", () => {
    const out = compactedMessages({ prompt: "p", summary: "s", filesRead: [], filesChanged: [], recent: [] });
    expect(((out[0]!.content as Anthropic.TextBlockParam[])[0]!).text).toContain("Files modified so far:\n(none)");
  });
});

describe("renderTranscript", () => {
  it("renders turns as text, with long outputs shortened", () => {
    const text = renderTranscript(conversation(["z".repeat(5000)]), 100_000);
    expect(text).toContain('TOOL CALL read {"path":"src/f0.ts"}');
    expect(text).toContain("TOOL RESULT: zzz");
    expect(text).toContain("[3000 more chars]");
    expect(text).not.toContain("tool_use");
  });

  it("keeps the newest part when too long", () => {
    const text = renderTranscript(conversation(["first".repeat(100), "last"]), 200);
    expect(text.startsWith("[earlier turns omitted]")).toBe(true);
    expect(text.endsWith("TOOL RESULT: last")).toBe(true);
  });
});
