import { describe, expect, it } from "vitest";
import { loadDefinitions } from "../../src/chain/definitions.js";
import { systemPromptFor } from "../../src/chain/system-prompt.js";

const PROMPT = "Do the work.\n\nCall `submit_x` at the end.\n\n<!-- without submit_x -->\nOnly if you have no `submit_x` tool, write:\n\n## Summary\nText.\n<!-- end without -->\n";

describe("systemPromptFor", () => {
  it("drops the part for an agent without a tool when that tool is offered", () => {
    expect(systemPromptFor(PROMPT, ["read", "submit_x"])).toBe("Do the work.\n\nCall `submit_x` at the end.");
  });

  it("keeps that part, without its markers, when the tool is not offered", () => {
    const text = systemPromptFor(PROMPT, ["read"]);
    expect(text).toContain("Only if you have no `submit_x` tool, write:\n\n## Summary\nText.");
    expect(text).not.toContain("<!--");
  });

  it("leaves a prompt without markers as it is", () => {
    expect(systemPromptFor("Plain <b>prompt</b>.", [])).toBe("Plain <b>prompt</b>.");
  });

  it("the bundled reviewer and planner read their text fallback only without their result tool", async () => {
    const { agents } = await loadDefinitions();
    for (const [name, tool] of [["reviewer", "submit_review"], ["planner", "submit_plan"]] as const) {
      const prompt = agents.get(name)!.prompt;
      expect(systemPromptFor(prompt, [tool]), name).not.toMatch(/Only if you have no|<!--/);
      expect(systemPromptFor(prompt, []), name).toMatch(new RegExp(`Only if you have no \`${tool}\` tool`));
    }
  });
});
