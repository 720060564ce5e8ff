import { describe, expect, it } from "vitest";
import { DEFAULT_PREAMBLE, learningId, learningMarker, parseLearnings, renderLearnings } from "../../src/learnings/learnings-file.js";
import { NOT_QUADRATIC_MS } from "../helpers/linear-time.js";

describe("parseLearnings", () => {
  it.each<[string, string, Array<{ text: string; line: number; id?: string }>]>([
    ["empty file", "", []],
    ["one bullet with a marker", `- Raw SQL in \`src/db/**\` is intended ${learningMarker("0a1b2c3d")}\n`, [{ text: "Raw SQL in `src/db/**` is intended", line: 1, id: "0a1b2c3d" }]],
    ["a person's bullet gets the hash of its words", "# Notes\n\n* Never flag TODOs", [{ text: "Never flag TODOs", line: 3, id: learningId("never   flag todos") }]],
    ["continuation lines join the bullet", "- first line\n  second line\n- next", [{ text: "first line\nsecond line", line: 1 }, { text: "next", line: 3 }]],
    ["bullets inside a code fence are not learnings", "```\n- not one\n```\n- one", [{ text: "one", line: 4 }]],
    ["an empty bullet is dropped", "- \n- real", [{ text: "real", line: 2 }]],
  ])("%s", (_name, markdown, expected) => {
    const { learnings } = parseLearnings(markdown);
    expect(learnings.map(({ text, line }) => ({ text, line }))).toEqual(expected.map(({ text, line }) => ({ text, line })));
    expected.forEach((e, i) => e.id && expect(learnings[i]!.id).toBe(e.id));
  });

  it("reads a bullet of 64 KB with a long run of spaces inside in linear time", () => {
    const text = `a${" ".repeat(65_000)}b`;
    const started = performance.now();
    expect(parseLearnings(`- ${text} ${learningMarker("0a1b2c3d")}`).learnings).toEqual([{ text, line: 1, span: 1, id: "0a1b2c3d" }]);
    expect(parseLearnings(`- ${text}`).learnings).toEqual([{ text, line: 1, span: 1, id: learningId(text) }]);
    expect(performance.now() - started).toBeLessThan(NOT_QUADRATIC_MS);
  });

  it("keeps what is not a bullet as the preamble", () => {
    expect(parseLearnings("# Ours\n\nA note.\n\n- one\n").preamble).toEqual(["# Ours", "", "A note."]);
  });
});

describe("renderLearnings", () => {
  it("writes the default preamble and one marked bullet per learning, which read back the same", () => {
    const text = renderLearnings({ learnings: [{ id: "00000001", text: "a\nb" }, { id: "00000002", text: "c" }] });
    expect(text.startsWith(DEFAULT_PREAMBLE.join("\n"))).toBe(true);
    expect(parseLearnings(text).learnings).toMatchObject([
      { id: "00000001", text: "a\nb" },
      { id: "00000002", text: "c" },
    ]);
  });

  it("keeps the team's own preamble", () => {
    const text = renderLearnings({ preamble: ["# Ours"], learnings: [{ id: "00000003", text: "x" }] });
    expect(text).toBe(`# Ours\n\n- x ${learningMarker("00000003")}\n`);
  });
});
