/** Extended thinking: the frontmatter budget, the request's limits, and thinking blocks kept intact across turns. */
import { afterEach, describe, expect, it } from "vitest";
import { replyLimits } from "../../src/agent/turn.js";
import { costOf } from "../../src/agent/pricing.js";
import { parseAgentFile } from "../../src/chain/agents.js";
import { signThinking } from "../helpers/fake-anthropic.js";
import { validateRequest } from "../helpers/fake-anthropic-rules.js";
import { closeAll, harness, readTool, toolUse } from "./harness.js";

afterEach(closeAll);

const agentFile = (extra: string) => `---\nname: deep\ndescription: Thinks first\n${extra}\n---\nYou think.\n`;

describe("agent frontmatter: thinking", () => {
  it("reads a token budget", () => {
    expect(parseAgentFile(agentFile("thinking: 4096"), "deep.md").thinking).toBe(4096);
    expect(parseAgentFile(agentFile(""), "deep.md").thinking).toBeUndefined();
  });

  it.each([
    ["below the API's minimum", "thinking: 512", /deep\.md: thinking: must be at least 1024 tokens/],
    ["not a whole number", "thinking: 2048.5", /deep\.md: thinking: must be a token budget/],
    ["a word", "thinking: lots", /deep\.md: thinking: must be a token budget/],
    ["true", "thinking: true", /deep\.md: thinking: must be a token budget/],
  ])("refuses a budget %s, naming the file and the key", (_name, line, message) => {
    expect(() => parseAgentFile(agentFile(line), "deep.md")).toThrow(message);
  });
});

describe("replyLimits", () => {
  it.each<[string, number, number, number | undefined, ReturnType<typeof replyLimits>]>([
    ["no thinking", 16_384, 200_000, undefined, { maxTokens: 16_384 }],
    ["no thinking, output budget nearly gone", 16_384, 100, undefined, { maxTokens: 100 }],
    ["thinking: max_tokens holds the budget and a reply", 16_384, 200_000, 8000, { maxTokens: 24_384, thinking: { type: "enabled", budget_tokens: 8000 } }],
    ["thinking clamped by the output budget, still above the budget", 16_384, 5000, 8000, { maxTokens: 5000, thinking: { type: "enabled", budget_tokens: 4999 } }],
    ["output budget below the API's minimum: no thinking this reply", 16_384, 1000, 8000, { maxTokens: 1000 }],
  ])("%s", (_name, perReply, left, thinking, expected) => expect(replyLimits(perReply, left, thinking)).toEqual(expected));
});

describe("runAgent with thinking", () => {
  it("sends extended thinking and sends the thinking blocks back unchanged, signatures and redacted ones included", async () => {
    const h = await harness(
      [
        {
          content: [
            { type: "thinking", thinking: "The file a holds the answer; read it." },
            { type: "redacted_thinking", data: "EncryptedOpaqueData==" },
            { type: "text", text: "Reading a." },
            toolUse("read", { path: "a" }),
          ],
          usage: { output_tokens: 3000 }, // thinking tokens are output tokens
        },
        { content: [{ type: "thinking", thinking: "It says 42." }, { type: "text", text: "42" }], usage: { output_tokens: 500 } },
      ],
      { tools: [readTool()] },
    );
    const result = await h.run({ thinking: 2048 });

    expect(result).toMatchObject({ stopReason: "done", text: "42", turns: 2 });
    const [first, second] = h.fake.requests.map((r) => r.body);
    expect(first!.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    expect(first!.max_tokens).toBe(2048 + 16_384);
    // The fake refuses a changed or missing signature, and a tool loop whose assistant turn does not start with its thinking.
    expect(second!.messages[1].content.slice(0, 2)).toEqual([
      { type: "thinking", thinking: "The file a holds the answer; read it.", signature: signThinking("The file a holds the answer; read it.") },
      { type: "redacted_thinking", data: "EncryptedOpaqueData==" },
    ]);
    expect(h.fake.rejections).toEqual([]);
    expect(result.usage.output).toBe(3500);
    expect(h.budget.usage.output).toBe(3500);
    expect(result.costUsd).toBeCloseTo(costOf("claude-haiku-4-5", result.usage).usd, 10);
  });

  it("clamps max_tokens and the thinking budget to the job's output budget", async () => {
    const h = await harness([{ content: [{ type: "thinking", thinking: "short" }, { type: "text", text: "ok" }] }], {
      budgets: { maxOutputTokens: 6000 },
    });
    await h.run({ thinking: 8000 });
    expect(h.fake.requests[0]!.body).toMatchObject({ max_tokens: 6000, thinking: { type: "enabled", budget_tokens: 5999 } });
  });
});

describe("fake API: thinking rules", () => {
  const base = (content: unknown[], thinking = true) => ({
    model: "m",
    max_tokens: 4096,
    ...(thinking ? { thinking: { type: "enabled", budget_tokens: 2048 } } : {}),
    tools: [{ name: "read", input_schema: { type: "object" } }],
    messages: [
      { role: "user", content: "go" },
      { role: "assistant", content },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "x" }] },
    ],
  });
  const use = { type: "tool_use", id: "t1", name: "read", input: {} };
  const rules = { signatureOf: signThinking };

  it.each<[string, Record<string, unknown>, RegExp | undefined]>([
    ["intact thinking", base([{ type: "thinking", thinking: "t", signature: signThinking("t") }, use]), undefined],
    ["a changed thinking text", base([{ type: "thinking", thinking: "t!", signature: signThinking("t") }, use]), /Invalid `signature`/],
    ["a tool loop turn without its thinking", base([use]), /must start with a thinking block/],
    ["no thinking asked: history blocks still checked", base([{ type: "thinking", thinking: "t", signature: "forged" }, use], false), /Invalid `signature`/],
    ["a budget under 1024", { ...base([{ type: "redacted_thinking", data: "d" }, use]), thinking: { type: "enabled", budget_tokens: 100 } }, /greater than or equal to 1024/],
    ["max_tokens not above the budget", { ...base([{ type: "redacted_thinking", data: "d" }, use]), max_tokens: 2048 }, /must be greater than `thinking.budget_tokens`/],
  ])("%s", (_name, body, problem) => {
    const found = validateRequest(body, rules);
    if (problem) expect(found).toMatch(problem);
    else expect(found).toBeUndefined();
  });
});
