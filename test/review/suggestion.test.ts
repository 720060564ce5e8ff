import { describe, expect, it } from "vitest";
import { fenceFor, proseFix, suggestionBlock } from "../../src/review/suggestion.js";

describe("fenceFor", () => {
  it.each([
    ["no backticks", "x", "```"],
    ["a run of three", "a ``` b", "````"],
    ["the longest run decides", "` `` ````` ``", "``````"],
  ])("%s", (_name, content, fence) => {
    expect(fenceFor(content)).toBe(fence);
  });

  it("fences a model's replacement holding 150,000 runs of backticks (more than a function's arguments can hold)", () => {
    const replacement = "`a".repeat(150_000);
    expect(suggestionBlock([replacement], false)).toBe(`\`\`\`suggestion\n${replacement}\n\`\`\``);
    expect(proseFix(`${replacement}\`\`\`\`b`, 3, 3)).toBe(`Suggested fix: replace line 3 with:\n\n\`\`\`\`\`\n${replacement}\`\`\`\`b\n\`\`\`\`\``);
  });
});
