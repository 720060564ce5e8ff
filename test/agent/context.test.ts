/**
 * Context management end to end, with tiny context windows. The fake server refuses any request
 * whose tool_use/tool_result pairs were split (closeAll would fail the test), so passing runs
 * prove the cuts are safe.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { RecordedRequest } from "../helpers/fake-anthropic.js";
import { closeAll, harness, pathTool, readTool, toolUse } from "./harness.js";

afterEach(closeAll);

const isSummary = (r: RecordedRequest) => !r.body.tools;
const firstText = (r: RecordedRequest): string => {
  const content = r.body.messages[0].content;
  return typeof content === "string" ? content : content.map((b: { text?: string }) => b.text ?? "").join("");
};

describe("runAgent: context management", () => {
  it("prunes old tool outputs when that is enough, without a summary", async () => {
    let turn = 0;
    const h = await harness(
      (request) => {
        if (isSummary(request)) return undefined; // a summary here is a failure
        turn += 1;
        return turn <= 10 ? { content: [toolUse("read", { path: `src/f${turn - 1}.ts` })] } : { text: "done" };
      },
      { tools: [readTool(() => "r".repeat(2000))] },
    );
    const result = await h.run({ contextWindow: 6000, reserveTokens: 1000 });

    expect(result).toMatchObject({ stopReason: "done", text: "done", turns: 11 });
    expect(h.events).toContainEqual(expect.objectContaining({ type: "compaction", kind: "prune" }));
    expect(h.events.some((e) => e.type === "compaction" && e.kind === "summary")).toBe(false);
    const last = h.fake.requests.at(-1)!.body;
    const outputs = last.messages
      .filter((m: { role: string }) => m.role === "user")
      .flatMap((m: { content: Array<{ type: string; content?: string }> }) => m.content.filter((b) => b.type === "tool_result"))
      .map((b: { content: string }) => b.content);
    expect(outputs[0]).toBe("[output pruned: read src/f0.ts, 2 KB]");
    expect(outputs.at(-1)).toBe("r".repeat(2000)); // the newest outputs stay whole
    expect(result.filesRead).toHaveLength(10);
  });

  it("summarises older turns when pruning is not enough, and lists the files itself", async () => {
    let turn = 0;
    let summaries = 0;
    const h = await harness(
      (request) => {
        if (isSummary(request)) {
          summaries += 1;
          return { text: `SUMMARY-${summaries}: wrote out.ts, read some files` };
        }
        turn += 1;
        if (turn === 1) return { content: [toolUse("write", { path: "src/out.ts" })] };
        if (turn <= 6) return { content: [{ type: "text", text: `step ${turn}` }, toolUse("read", { path: `src/f${turn - 2}.ts` })] };
        return { text: "finished" };
      },
      {
        tools: [
          readTool(() => "q".repeat(9000)),
          pathTool("write", false, ({ path }) => ({ output: "written", isError: false, filesChanged: [path] })),
        ],
      },
    );
    const result = await h.run({ contextWindow: 5000, reserveTokens: 1000 });

    expect(result).toMatchObject({ stopReason: "done", text: "finished", filesChanged: ["src/out.ts"] });
    expect(h.events).toContainEqual(expect.objectContaining({ type: "compaction", kind: "summary" }));

    const summaryRequests = h.fake.requests.filter(isSummary);
    expect(summaryRequests.length).toBeGreaterThanOrEqual(1);
    for (const r of summaryRequests) {
      expect(r.body).not.toHaveProperty("tools");
      expect(r.body.messages).toHaveLength(1);
      expect(firstText(r)).toContain("<transcript>");
      expect(JSON.stringify(r.body.messages)).not.toContain('"tool_use"');
    }
    // A second summary builds on the first.
    if (summaryRequests.length > 1) expect(firstText(summaryRequests[1]!)).toContain("SUMMARY-1");

    // The request after the first summary: prompt + summary + file lists, then recent turns.
    const after = h.fake.requests[h.fake.requests.indexOf(summaryRequests[0]!) + 1]!;
    const head = firstText(after);
    expect(head.startsWith("Do the task.")).toBe(true);
    expect(head).toContain("SUMMARY-1");
    expect(head).toContain("Files read so far:\n- src/f0.ts");
    expect(head).toContain("Files modified so far:\n- src/out.ts");
    expect(after.body.messages[1].role).toBe("assistant");
    expect(after.body.tools).toEqual(h.fake.requests[0]!.body.tools); // tools unchanged by compaction

    // Summaries are paid for like any reply, but are not agent turns.
    expect(result.turns).toBe(7);
    expect(h.events.filter((e) => e.type === "usage")).toHaveLength(h.fake.requests.length);
  });

  it("measures the context by the API's usage figures, not by characters", async () => {
    const turns = [
      { content: [toolUse("read", { path: "a" })] },
      { content: [toolUse("read", { path: "b" })] },
      // A small conversation by its characters, but the API counts 190k tokens of context (e.g. a large cached prefix).
      { content: [toolUse("read", { path: "c" })], usage: { input_tokens: 50, cache_read_input_tokens: 189_000, cache_creation_input_tokens: 900, output_tokens: 50 } },
      { text: "done" },
    ];
    const h = await harness((request) => (isSummary(request) ? { text: "summary" } : turns.shift()), { tools: [readTool(() => "z".repeat(400))] });
    const result = await h.run({ contextWindow: 200_000 });

    expect(result).toMatchObject({ stopReason: "done", text: "done" });
    const compactions = h.events.filter((e) => e.type === "compaction");
    expect(compactions.length).toBeGreaterThanOrEqual(1);
    // 50 + 189,000 + 900 + 50 from the usage, plus an estimate of only the result added since.
    expect(compactions[0]).toMatchObject({ beforeTokens: expect.any(Number) });
    const before = (compactions[0] as { beforeTokens: number }).beforeTokens;
    expect(before).toBeGreaterThanOrEqual(190_000);
    expect(before).toBeLessThan(190_000 + 200);
    const lastBeforeCompaction = h.fake.requests[2]!.body;
    expect(JSON.stringify(lastBeforeCompaction).length / 4).toBeLessThan(5000); // what characters ÷ 4 would have said
  });
});
