import { describe, expect, it } from "vitest";
import { blocksOf, cacheShare, cachedBytes } from "../../bench/cache-share.js";

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
});
