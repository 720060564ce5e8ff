import { describe, expect, it } from "vitest";
import { parseDoneMarkers } from "../../src/plan/parse-done.js";

describe("parseDoneMarkers", () => {
  it.each<[string, string, number | undefined, number[]]>([
    ["plain markers", "[DONE:1]\nwork\n[DONE:2]", undefined, [1, 2]],
    ["spaces and case", "[DONE: 3] [done:1] [ Done : 2 ]", undefined, [1, 2, 3]],
    ["unique and ascending", "[DONE:2] [DONE:1] [DONE:2]", undefined, [1, 2]],
    ["inside a sentence", "Finished step 4 [DONE:4].", undefined, [4]],
    ["leading zeros", "[DONE:03]", undefined, [3]],
    ["in a fenced block: ignored", "```\n[DONE:1]\n```\n~~~\n[DONE:2]\n~~~\n[DONE:3]", undefined, [3]],
    ["in inline code: ignored", "write `[DONE:1]` after step 1; ``[DONE:2]`` too\n[DONE:3]", undefined, [3]],
    ["zero is not a step", "[DONE:0] [DONE:1]", undefined, [1]],
    ["above stepCount: ignored", "[DONE:1] [DONE:4]", 3, [1]],
    ["stepCount 0: nothing", "[DONE:1]", 0, []],
    ["placeholders and malformed markers", "[DONE:n] [DONE] DONE:1 [DONE:-1] [DONE:1.5] (DONE:2)", undefined, []],
    ["nothing", "", undefined, []],
  ])("%s", (_name, text, count, expected) => {
    expect(parseDoneMarkers(text, count)).toEqual(expected);
  });
});
