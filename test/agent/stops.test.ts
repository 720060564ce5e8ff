/** How a run ends other than "done": budgets, the agent's own turn cap, aborts, provider errors. */
import { afterEach, describe, expect, it } from "vitest";
import { costOf } from "../../src/agent/pricing.js";
import { closeAll, harness, pathTool, readTool, toolUse } from "./harness.js";

afterEach(closeAll);

/** A model that always asks for one more read. */
const endlessReads = () => ({ content: [{ type: "text" as const, text: "Reading more." }, toolUse("read", { path: "a" })] });

/** A `bash` stand-in that runs until its signal aborts, and says whether it saw the abort. */
function untilAborted() {
  const tool = pathTool("bash", false, (_input, ctx) =>
    new Promise((resolve) => {
      ctx.signal.addEventListener("abort", () => {
        tool.sawAbort = true;
        resolve({ output: "killed", isError: true });
      });
    }),
  ) as ReturnType<typeof pathTool> & { sawAbort?: boolean };
  return tool;
}

describe("runAgent: budgets", () => {
  it("stops at the job's turn budget", async () => {
    const h = await harness(endlessReads, { tools: [readTool()], budgets: { maxTurns: 2 } });
    const result = await h.run();

    expect(result).toMatchObject({ stopReason: "budget", budget: "maxTurns", error: "turn budget reached (2 turns)", turns: 2 });
    expect(result.text).toBe("Reading more."); // the text produced so far
    expect(h.fake.requests).toHaveLength(2);
    expect(h.events.at(-1)).toMatchObject({ type: "run_end", stopReason: "budget", budget: "maxTurns" });
  });

  it("stops at the agent's own maxTurns even when the job has turns left", async () => {
    const h = await harness(endlessReads, { tools: [readTool()] });
    const result = await h.run({ maxTurns: 3 });

    expect(result).toMatchObject({ stopReason: "budget", budget: "maxTurns", turns: 3 });
    expect(result.error).toBe("turn budget reached (3 turns) for agent tester");
    expect(h.fake.requests).toHaveLength(3);
  });

  it("counts turns in the shared budget across agents", async () => {
    const h = await harness([{ text: "one" }, endlessReads(), { text: "two" }], { tools: [readTool()], budgets: { maxTurns: 3 } });
    await h.run();
    const second = await h.run();
    expect(second).toMatchObject({ stopReason: "done", turns: 2 });
    const third = await h.run();
    expect(third).toMatchObject({ stopReason: "budget", budget: "maxTurns", turns: 0 });
    expect(h.budget.turns).toBe(3);
  });

  it("stops at the output-token budget and clamps max_tokens to what is left", async () => {
    const reply = () => ({ ...endlessReads(), usage: { output_tokens: 60 } });
    const h = await harness(reply, { tools: [readTool()], budgets: { maxOutputTokens: 100 } });
    const result = await h.run();

    expect(result).toMatchObject({ stopReason: "budget", budget: "maxOutputTokens", turns: 2 });
    expect(result.error).toBe("output-token budget reached (100 tokens)");
    expect(h.fake.requests.map((r) => r.body.max_tokens)).toEqual([100, 40]);
  });

  it("stops at the cost budget, pricing an unknown model at the highest rate as an estimate", async () => {
    const reply = () => ({ ...endlessReads(), usage: { input_tokens: 50_000, output_tokens: 1000, cache_read_input_tokens: 20_000, cache_creation_input_tokens: 10_000 } });
    const h = await harness(reply, { tools: [readTool()], budgets: { maxCostUsd: 2 } });
    const result = await h.run({ model: "mystery-model-9" });

    const perReply = costOf("mystery-model-9", { input: 50_000, output: 1000, cacheRead: 20_000, cacheWrite: 10_000 });
    expect(perReply.estimate).toBe(true);
    // Highest known rates: $15 in, $75 out, cache write 1.25×, cache read 0.1× input.
    expect(perReply.usd).toBeCloseTo((50_000 * 15 + 1000 * 75 + 10_000 * 18.75 + 20_000 * 1.5) / 1e6, 10);
    const turns = Math.ceil(2 / perReply.usd);
    expect(result).toMatchObject({ stopReason: "budget", budget: "maxCostUsd", estimate: true, turns });
    expect(result.costUsd).toBeCloseTo(perReply.usd * turns, 10);
    expect(h.budget.estimate).toBe(true);
    expect(h.events).toContainEqual(expect.objectContaining({ type: "usage", estimate: true }));
  });

  it("stops at the time budget, aborting a slow reply in flight", async () => {
    const h = await harness([{ text: "too late", delay: 10_000 }], { budgets: { maxMinutes: 0.005 } }); // 300 ms
    const started = Date.now();
    const result = await h.run();

    expect(result).toMatchObject({ stopReason: "budget", budget: "maxMinutes", error: "time budget reached (0.005 min)" });
    expect(Date.now() - started).toBeLessThan(8000); // did not wait for the reply
  });

  it("stops at the time budget while a tool runs, and the tool sees the abort", async () => {
    const slow = untilAborted();
    const h = await harness([{ content: [toolUse("bash", { path: "x" })] }], { tools: [slow], budgets: { maxMinutes: 0.005 } });
    const result = await h.run();

    expect(result).toMatchObject({ stopReason: "budget", budget: "maxMinutes" });
    expect(slow.sawAbort).toBe(true);
  });
});

describe("runAgent: aborts", () => {
  it("aborts during a slow reply", async () => {
    const h = await harness([{ text: "never", delay: 10_000 }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await h.run({ signal: controller.signal });

    expect(result).toMatchObject({ stopReason: "aborted", error: "aborted", turns: 1 });
  });

  it("keeps the text streamed before an abort", async () => {
    const h = await harness([{ text: "First part, second part, third part.", eventDelay: 300 }]);
    const controller = new AbortController();
    const result = await h.run({
      signal: controller.signal,
      emit: (event) => {
        if (event.type === "text") controller.abort(); // abort as soon as text starts arriving
      },
    });

    expect(result.stopReason).toBe("aborted");
    expect(result.text.length).toBeGreaterThan(0);
    expect("First part, second part, third part.".startsWith(result.text)).toBe(true);
    expect(result.text).not.toBe("First part, second part, third part.");
  });

  it("aborts during a slow tool, passing the abort to the tool", async () => {
    const slow = untilAborted();
    const h = await harness([{ content: [toolUse("bash", { path: "x" })] }], { tools: [slow] });
    const controller = new AbortController();
    const result = await h.run({
      signal: controller.signal,
      emit: (event) => {
        if (event.type === "tool_start") setTimeout(() => controller.abort(), 50);
      },
    });

    expect(result).toMatchObject({ stopReason: "aborted", turns: 1 });
    expect(slow.sawAbort).toBe(true);
  });

  it("returns on abort even when a tool ignores the signal", async () => {
    const stuck = pathTool("bash", false, () => new Promise(() => {}));
    const h = await harness([{ content: [toolUse("bash", { path: "x" })] }], { tools: [stuck] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await h.run({ signal: controller.signal });
    expect(result.stopReason).toBe("aborted");
  });

  it("does not start when already aborted", async () => {
    const h = await harness([]);
    const result = await h.run({ signal: AbortSignal.abort() });
    expect(result).toMatchObject({ stopReason: "aborted", turns: 0 });
    expect(h.fake.requests).toHaveLength(0);
  });
});

describe("runAgent: provider errors", () => {
  it("ends a persistent 529 as a provider error once the retry window is used up", async () => {
    const overloaded = () => ({ error: { status: 529, message: "Overloaded" } });
    const h = await harness(overloaded, { retry: { maxMs: 60_000 } });
    const result = await h.run();

    expect(result.stopReason).toBe("error");
    expect(result.error).toMatch(/^provider error: 529 Overloaded \(still failing after \d+ attempts over 1 min; CREWBOT_MODEL_RETRY_MINUTES is 1 min\)$/);
    expect(result.turns).toBe(1);
    expect(h.retryClock.elapsed()).toBe(60_000); // the last backoff is clipped to the window's end
    expect(h.fake.requests.length).toBe(h.retryClock.waits.length + 1);
  });

  it("does not retry a 400", async () => {
    const h = await harness([{ error: { status: 400, message: "max_tokens: Field required" } }]);
    const result = await h.run();
    expect(result.error).toBe("provider error: 400 max_tokens: Field required");
    expect(h.fake.requests).toHaveLength(1);
  });
});
