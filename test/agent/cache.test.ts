import type Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { withCacheBreakpoints } from "../../src/agent/cache.js";

const cc = { type: "ephemeral" };
const tool = (name: string): Anthropic.Tool => ({ name, input_schema: { type: "object" } });
const sys = (text: string): Anthropic.TextBlockParam => ({ type: "text", text });

/** Where the markers are: "system.0", "tools.1", "messages.2.0", … */
function markers(req: ReturnType<typeof withCacheBreakpoints>): string[] {
  const found: string[] = [];
  req.system.forEach((b, i) => b.cache_control && found.push(`system.${i}`));
  req.tools.forEach((t, i) => t.cache_control && found.push(`tools.${i}`));
  req.messages.forEach((m, i) => {
    if (typeof m.content === "string") return;
    m.content.forEach((b, j) => "cache_control" in b && b.cache_control && found.push(`messages.${i}.${j}`));
  });
  return found;
}

describe("withCacheBreakpoints", () => {
  it.each<[string, Parameters<typeof withCacheBreakpoints>[0], string[]]>([
    [
      "one user message",
      { system: [sys("s")], tools: [tool("a"), tool("b")], messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] },
      ["system.0", "tools.1", "messages.0.0"],
    ],
    [
      "string content becomes a marked text block",
      { system: [sys("s")], tools: [tool("a")], messages: [{ role: "user", content: "hi" }] },
      ["system.0", "tools.0", "messages.0.0"],
    ],
    [
      "several system blocks: only the last",
      { system: [sys("a"), sys("b")], tools: [], messages: [{ role: "user", content: "hi" }] },
      ["system.1", "messages.0.0"],
    ],
    [
      "no system, no tools: only the newest message",
      { system: [], tools: [], messages: [{ role: "user", content: "hi" }] },
      ["messages.0.0"],
    ],
    [
      "old markers are removed; the newest message's last block and the previous request's newest are marked",
      {
        system: [{ ...sys("s"), cache_control: { type: "ephemeral" } }],
        tools: [{ ...tool("a"), cache_control: { type: "ephemeral" } }, tool("b")],
        messages: [
          { role: "user", content: [{ type: "text", text: "task", cache_control: { type: "ephemeral" } }] },
          { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "a", input: {}, cache_control: { type: "ephemeral" } }] },
          {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: "t1", content: "x" },
              { type: "tool_result", tool_use_id: "t2", content: "y" },
            ],
          },
        ],
      },
      ["system.0", "tools.1", "messages.0.0", "messages.2.1"],
    ],
    [
      "a long run: only the previous turn's results and the newest carry markers, never more than 4 in all",
      {
        system: [sys("s")],
        tools: [tool("a")],
        messages: [
          { role: "user", content: "task" },
          { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "a", input: {} }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "x" }] },
          { role: "assistant", content: [{ type: "tool_use", id: "t2", name: "a", input: {} }, { type: "tool_use", id: "t3", name: "a", input: {} }] },
          {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: "t2", content: "y", cache_control: { type: "ephemeral" } },
              { type: "tool_result", tool_use_id: "t3", content: "z" },
            ],
          },
          { role: "assistant", content: [{ type: "text", text: "go on" }, { type: "tool_use", id: "t4", name: "a", input: {} }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "t4", content: "w" }] },
        ],
      },
      ["system.0", "tools.0", "messages.4.1", "messages.6.0"],
    ],
    [
      "thinking blocks are never marked",
      {
        system: [],
        tools: [],
        messages: [
          { role: "user", content: "task" },
          { role: "assistant", content: [{ type: "text", text: "t" }, { type: "thinking", thinking: "hm", signature: "s" }] },
        ],
      },
      ["messages.1.0"],
    ],
  ])("%s", (_name, request, expected) => {
    const before = JSON.stringify(request);
    const marked = withCacheBreakpoints(request);
    expect(markers(marked)).toEqual(expected);
    expect(JSON.stringify(request)).toBe(before); // inputs untouched
    for (const where of expected) {
      const [kind, i, j] = where.split(".").map((p, k) => (k === 0 ? p : Number(p))) as [string, number, number?];
      const target =
        kind === "system" ? marked.system[i] : kind === "tools" ? marked.tools[i] : (marked.messages[i]!.content as object[])[j!];
      expect((target as { cache_control: unknown }).cache_control).toEqual(cc);
    }
  });

  it("gives the same bytes for the same input (stable prefix)", () => {
    const req = { system: [sys("s")], tools: [tool("a")], messages: [{ role: "user" as const, content: "x" }] };
    expect(JSON.stringify(withCacheBreakpoints(req))).toBe(JSON.stringify(withCacheBreakpoints(req)));
  });
});
