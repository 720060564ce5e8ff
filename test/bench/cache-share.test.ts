import { describe, expect, it } from "vitest";
import { blocksOf, cacheShare, cachedBytes, LOOKBACK_BLOCKS, withNewestMarkerOnly } from "../../bench/cache-share.js";

const cc = { cache_control: { type: "ephemeral" } };
const req = (messages: string[], marked = messages.length - 1) => ({
  tools: [{ name: "read", ...cc }],
  system: [{ type: "text", text: "sys", ...cc }],
  messages: messages.map((text, i) => ({
    role: i % 2 === 0 ? "user" : "assistant",
    content: [{ type: "text", text, ...(i === marked ? cc : {}) }],
  })),
});

describe("cache share", () => {
  it("counts the prefix up to the previous request's last breakpoint when it is byte-identical", () => {
    const first = blocksOf(req(["a"]));
    const second = blocksOf(req(["a", "b", "c"]));
    const upToA = second.slice(0, 3).reduce((n, b) => n + b.bytes.length, 0);
    expect(cachedBytes(first, second)).toBe(upToA);
  });

  it("falls back to an earlier breakpoint when a later block changed", () => {
    const first = blocksOf(req(["a"]));
    const changed = blocksOf(req(["A", "b", "c"]));
    const toolsAndSystem = changed.slice(0, 2).reduce((n, b) => n + b.bytes.length, 0);
    expect(cachedBytes(first, changed)).toBe(toolsAndSystem);
  });

  it("is 0 for a single request and grows over a run", () => {
    expect(cacheShare([req(["a"])]).share).toBe(0);
    const run = cacheShare([req(["a"]), req(["a", "b", "c"]), req(["a", "b", "c", "d", "e"])]);
    expect(run.share).toBeGreaterThan(0.3);
    expect(run.share).toBeLessThan(1);
  });

  /** A turn of `calls` parallel tool calls: one assistant message of tool_use blocks, one user message of results. */
  const parallelRun = (turns: number, calls: number) => {
    const messages: Array<{ role: string; content: Array<Record<string, unknown>> }> = [{ role: "user", content: [{ type: "text", text: "task" }] }];
    const bodies = [];
    for (let t = 0; t < turns; t++) {
      const marked = messages.map((m, i) => ({
        ...m,
        content: m.content.map((b, j) => (j === m.content.length - 1 && (i === messages.length - 1 || i === messages.length - 3) ? { ...b, ...cc } : b)),
      }));
      bodies.push({ tools: [{ name: "read", ...cc }], system: [{ type: "text", text: "sys", ...cc }], messages: marked });
      const ids = Array.from({ length: calls }, (_, k) => `t${t}_${k}`);
      messages.push({ role: "assistant", content: ids.map((id) => ({ type: "tool_use", id, name: "read", input: {} })) });
      messages.push({ role: "user", content: ids.map((id) => ({ type: "tool_result", tool_use_id: id, content: "r".repeat(100) })) });
    }
    return bodies;
  };

  it("finds nothing further back than the lookback: a newest-only marker misses after a wide parallel turn", () => {
    const calls = LOOKBACK_BLOCKS / 2 + 1; // tool_use + results > 20 blocks
    const bodies = parallelRun(3, calls);
    const withPrevious = cachedBytes(blocksOf(bodies[1]!), blocksOf(bodies[2]!));
    const newestOnly = cachedBytes(blocksOf(withNewestMarkerOnly(bodies[1]!)), blocksOf(withNewestMarkerOnly(bodies[2]!)));
    const upToPrevious = blocksOf(bodies[1]!).reduce((n, b) => n + b.bytes.length, 0);
    expect(withPrevious).toBe(upToPrevious); // the marker on the previous turn reads its whole prefix
    expect(newestOnly).toBe(blocksOf(bodies[2]!).slice(0, 2).reduce((n, b) => n + b.bytes.length, 0)); // only tools + system
  });

  it("with narrow turns the lookback suffices for the newest marker alone", () => {
    const bodies = parallelRun(3, 2);
    expect(cachedBytes(blocksOf(withNewestMarkerOnly(bodies[1]!)), blocksOf(withNewestMarkerOnly(bodies[2]!)))).toBe(
      blocksOf(bodies[1]!).reduce((n, b) => n + b.bytes.length, 0),
    );
  });
});
