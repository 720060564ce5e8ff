import { afterEach, describe, expect, it } from "vitest";
import { CONTINUE_PROMPT } from "../../src/agent/loop.js";
import { ToolError } from "../../src/tools/types.js";
import { closeAll, harness, lastToolResults, pathTool, readTool, sleep, toolUse } from "./harness.js";

afterEach(closeAll);

describe("runAgent: turns and tools", () => {
  it("returns the model's text for a plain answer, with events in order", async () => {
    const h = await harness([{ text: "All done.", usage: { input_tokens: 1000, output_tokens: 200 } }]);
    const result = await h.run();

    expect(result).toMatchObject({ stopReason: "done", text: "All done.", turns: 1, filesRead: [], filesChanged: [] });
    expect(result.usage).toEqual({ input: 1000, output: 200, cacheRead: 0, cacheWrite: 0 });
    expect(result.costUsd).toBeCloseTo((1000 * 1 + 200 * 5) / 1e6, 10);
    expect(result.estimate).toBe(false);
    expect(h.budget.turns).toBe(1);
    const types = h.events.map((e) => e.type).filter((t) => t !== "text");
    expect(types).toEqual(["run_start", "turn_start", "usage", "turn_end", "run_end"]);
    expect(h.events.filter((e) => e.type === "text").map((e) => (e as { text: string }).text).join("")).toBe("All done.");
    const body = h.fake.requests[0]!.body;
    expect(body).toMatchObject({ model: "claude-haiku-4-5", max_tokens: 16384, stream: true });
    expect(body).not.toHaveProperty("tools"); // no tools offered, none sent
  });

  it("runs a tool and sends its result back, then finishes", async () => {
    const h = await harness(
      [{ content: [{ type: "text", text: "Reading." }, toolUse("read", { path: "src/a.ts" })] }, { text: "It exports foo." }],
      { tools: [readTool()] },
    );
    const result = await h.run();

    expect(result).toMatchObject({ stopReason: "done", text: "It exports foo.", turns: 2, filesRead: ["src/a.ts"] });
    const second = h.fake.requests[1]!.body;
    expect(second.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(lastToolResults(second)).toMatchObject([{ content: "contents of src/a.ts" }]);
    expect(lastToolResults(second)[0]).not.toHaveProperty("is_error");
    expect(h.events).toContainEqual(expect.objectContaining({ type: "tool_start", name: "read", args: "src/a.ts" }));
    expect(h.events).toContainEqual(expect.objectContaining({ type: "tool_end", name: "read", ok: true, output: "contents of src/a.ts" }));
  });

  it("runs read-only calls of one reply concurrently, and a batch with a write tool in order", async () => {
    const windows: Record<string, [number, number]> = {};
    const timed = (name: "read" | "grep" | "write", readOnly: boolean) =>
      pathTool(name, readOnly, async ({ path }) => {
        const start = performance.now();
        await sleep(150);
        windows[`${name}:${path}`] = [start, performance.now()];
        return { output: `${name} ${path}`, isError: false };
      });
    const h = await harness(
      [
        { content: [toolUse("read", { path: "a" }), toolUse("grep", { path: "b" })] },
        { content: [toolUse("read", { path: "c" }), toolUse("write", { path: "d" })] },
        { text: "ok" },
      ],
      { tools: [timed("read", true), timed("grep", true), timed("write", false)] },
    );
    const result = await h.run();
    expect(result.stopReason).toBe("done");

    const [a, b] = [windows["read:a"]!, windows["grep:b"]!];
    expect(a[0] < b[1] && b[0] < a[1]).toBe(true); // the two read-only calls overlapped
    const [c, d] = [windows["read:c"]!, windows["write:d"]!];
    expect(d[0]).toBeGreaterThanOrEqual(c[1]); // the write waited for the read before it
    // Results keep the calls' order either way.
    expect(lastToolResults(h.fake.requests[1]!.body).map((r) => r.content)).toEqual(["read a", "grep b"]);
    expect(lastToolResults(h.fake.requests[2]!.body).map((r) => r.content)).toEqual(["read c", "write d"]);
  });

  it("answers unknown tools, bad arguments and throwing tools with error results, and goes on", async () => {
    const h = await harness(
      [
        {
          content: [
            toolUse("teleport", { to: "mars" }),
            toolUse("read", { path: 42 }),
            toolUse("edit", { path: "x.ts" }),
            toolUse("write", { path: "y.ts" }),
          ],
        },
        { text: "Recovered." },
      ],
      {
        tools: [
          readTool(),
          pathTool("edit", false, () => {
            throw new ToolError("oldText not found in x.ts");
          }),
          pathTool("write", false, () => {
            throw new TypeError("boom");
          }),
        ],
      },
    );
    const result = await h.run();

    expect(result).toMatchObject({ stopReason: "done", text: "Recovered." });
    const results = lastToolResults(h.fake.requests[1]!.body);
    expect(results.every((r) => r.is_error === true)).toBe(true);
    expect(results[0]!.content).toMatch(/Unknown tool "teleport".*read, edit, write/);
    expect(results[1]!.content).toMatch(/Invalid arguments for read: path:/);
    expect(results[2]!.content).toBe("oldText not found in x.ts");
    expect(results[3]!.content).toBe("TypeError: boom");
    expect(result.filesChanged).toEqual([]); // failed calls changed nothing
  });

  it("continues a reply cut off by max_tokens and joins the text", async () => {
    const h = await harness([{ text: "The answer is", stop_reason: "max_tokens" }, { text: " forty-two." }]);
    const result = await h.run();

    expect(result).toMatchObject({ stopReason: "done", text: "The answer is forty-two.", turns: 2 });
    const last = h.fake.requests[1]!.body.messages.at(-1);
    expect(last).toMatchObject({ role: "user", content: [{ type: "text", text: CONTINUE_PROMPT }] });
  });

  it("does not run a tool call whose input was cut off by max_tokens", async () => {
    let ran = 0;
    const write = pathTool("write", false, () => {
      ran += 1;
      return { output: "written", isError: false };
    });
    const h = await harness(
      [{ content: [toolUse("write", { path: "big.ts" })], stop_reason: "max_tokens" }, { text: "Will split it." }],
      { tools: [write] },
    );
    const result = await h.run();

    expect(result.stopReason).toBe("done");
    expect(ran).toBe(0);
    expect(lastToolResults(h.fake.requests[1]!.body)[0]).toMatchObject({ is_error: true, content: expect.stringContaining("max_tokens") });
  });
});

describe("runAgent: events and odd endings", () => {
  it("awaits the job's work after each reply, before that reply's tool calls run", async () => {
    const order: string[] = [];
    const write = pathTool("write", false, ({ path }) => (order.push(`tool ${path}`), { output: "ok", isError: false }));
    const h = await harness(
      [{ content: [toolUse("write", { path: "a" })] }, { content: [toolUse("write", { path: "b" })] }, { text: "done" }],
      { tools: [write] },
    );
    let replies = 0;
    const result = await h.run({
      betweenTurns: async () => {
        replies += 1;
        await sleep(5); // the loop must wait for it
        order.push(`between ${replies}`);
      },
    });
    expect(result.stopReason).toBe("done");
    expect(order).toEqual(["between 1", "tool a", "between 2", "tool b", "between 3"]);
  });

  it("uses an injected argument summarizer for tool_start", async () => {
    const h = await harness([{ content: [toolUse("read", { path: "a" })] }, { text: "ok" }], { tools: [readTool()] });
    await h.run({ summarizeArgs: (name, input) => `${name}(${(input as { path: string }).path})` });
    expect(h.events).toContainEqual(expect.objectContaining({ type: "tool_start", args: "read(a)" }));
  });

  it("survives an event sink that throws", async () => {
    const h = await harness([{ content: [toolUse("read", { path: "a" })] }, { text: "ok" }], { tools: [readTool()] });
    const result = await h.run({
      emit: () => {
        throw new Error("reporter bug");
      },
    });
    expect(result).toMatchObject({ stopReason: "done", text: "ok" });
  });

  it("ends a refusal as an error, keeping its text", async () => {
    const h = await harness([{ text: "I can't help with that.", stop_reason: "refusal" }]);
    const result = await h.run();
    expect(result).toMatchObject({ stopReason: "error", text: "I can't help with that." });
    expect(result.error).toContain("refusal");
  });
});

describe("runAgent: prompt caching", () => {
  it("marks exactly system, last tool, the previous request's newest block and the newest block, with system and tools byte-identical every turn", async () => {
    const h = await harness(
      [
        { content: [toolUse("read", { path: "a" })] },
        { content: [toolUse("grep", { path: "b" })] },
        { text: "done" },
      ],
      { tools: [readTool(), pathTool("grep", true, () => ({ output: "match", isError: false }))] },
    );
    await h.run();

    expect(h.fake.requests).toHaveLength(3);
    const first = h.fake.requests[0]!.body;
    for (const { body } of h.fake.requests) {
      expect(JSON.stringify(body.system)).toBe(JSON.stringify(first.system));
      expect(JSON.stringify(body.tools)).toBe(JSON.stringify(first.tools));
      expect(body.system.at(-1).cache_control).toEqual({ type: "ephemeral" });
      expect(body.tools.at(-1).cache_control).toEqual({ type: "ephemeral" });
      expect(body.tools[0]).not.toHaveProperty("cache_control");
      const lastMessage = body.messages.at(-1);
      expect(lastMessage.content.at(-1).cache_control).toEqual({ type: "ephemeral" });
      // From the second request on, the previous request's newest message keeps its marker: that entry is read back.
      const previous = body.messages.length >= 3 ? body.messages.at(-3) : undefined;
      if (previous) expect(previous.content.at(-1).cache_control).toEqual({ type: "ephemeral" });
      // Nowhere else: never more than the API's 4 markers.
      expect(JSON.stringify(body).split('"cache_control"').length - 1).toBe(previous ? 4 : 3);
    }
    // One request's messages are byte-identical in the next, markers aside (the cache matches content, not markers).
    const unmarked = (messages: unknown) => JSON.stringify(messages).replaceAll(',"cache_control":{"type":"ephemeral"}', "");
    for (let i = 1; i < h.fake.requests.length; i++) {
      const before = h.fake.requests[i - 1]!.body.messages;
      const after = h.fake.requests[i]!.body.messages;
      expect(unmarked(after.slice(0, before.length))).toBe(unmarked(before));
    }
  });
});
