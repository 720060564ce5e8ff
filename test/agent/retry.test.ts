/** Retries of failed model requests: the policy's pure parts, then runs against a failing fake API. */
import { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { abortableSleep, backoffMs, modelRetryMinutes, retryAfterMs, retryReason } from "../../src/agent/retry.js";
import { PRUNED_PREFIX } from "../../src/agent/compaction.js";
import { closeAll, harness, readTool, toolUse } from "./harness.js";

afterEach(closeAll);

const apiError = (status: number | undefined, type: string, headers: Record<string, string> = {}) =>
  status === undefined
    ? new APIError(undefined, { type: "error", error: { type, message: type } }, undefined, new Headers(headers))
    : APIError.generate(status, { type: "error", error: { type, message: "m" } }, undefined, new Headers(headers));

describe("retryReason", () => {
  it.each<[string, unknown, string | undefined]>([
    ["529", apiError(529, "overloaded_error"), "529 overloaded_error: m"],
    ["429", apiError(429, "rate_limit_error"), "429 rate_limit_error: m"],
    ["500", apiError(500, "api_error"), "500 api_error: m"],
    ["503 without a type", APIError.generate(503, undefined, "Service Unavailable", new Headers()), "503"],
    ["an error event inside the stream (no status)", apiError(undefined, "overloaded_error"), "529 overloaded_error"],
    ["a connection error", new APIConnectionError({ message: "Connection error." }), "connection error: Connection error."],
    ["a cut stream", new TypeError("terminated"), "connection dropped: terminated"],
    ["400", apiError(400, "invalid_request_error"), undefined],
    ["401", apiError(401, "authentication_error"), undefined],
    ["a 529 the server says not to retry", apiError(529, "overloaded_error", { "x-should-retry": "false" }), undefined],
    ["a cancel", new APIUserAbortError(), undefined],
    ["a bug of ours", new TypeError("x is not a function"), undefined],
  ])("%s", (_name, err, expected) => expect(retryReason(err)).toBe(expected));
});

describe("retryAfterMs", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  it.each<[string, Record<string, string>, number | undefined]>([
    ["retry-after-ms wins", { "retry-after-ms": "1500", "retry-after": "9" }, 1500],
    ["retry-after in seconds", { "retry-after": "7" }, 7000],
    ["retry-after as an HTTP date", { "retry-after": "Thu, 01 Jan 2026 00:00:30 GMT" }, 30_000],
    ["nothing", {}, undefined],
    ["garbage", { "retry-after": "soon" }, undefined],
  ])("%s", (_name, headers, expected) => expect(retryAfterMs(apiError(429, "rate_limit_error", headers), now)).toBe(expected));
});

describe("backoffMs", () => {
  const policy = { baseMs: 1000, capMs: 30_000 };
  it.each([
    [1, 0, 500],
    [1, 0.999, 1000],
    [2, 0, 1000],
    [4, 0.5, 6000],
    [10, 0, 15_000], // capped at 30 s, half of it fixed
  ])("attempt %i, random %d → %i ms", (attempt, random, expected) =>
    expect(backoffMs(attempt, { ...policy, random: () => random })).toBe(expected));
});

describe("modelRetryMinutes", () => {
  it.each<[string | undefined, number]>([[undefined, 10], ["", 10], ["3", 3], ["0.5", 0.5], ["0", 0]])("%s → %d", (raw, expected) =>
    expect(modelRetryMinutes(raw === undefined ? {} : { CREWBOT_MODEL_RETRY_MINUTES: raw })).toBe(expected));
  it.each(["ten", "-1", "Infinity"])("refuses %j naming the variable", (raw) =>
    expect(() => modelRetryMinutes({ CREWBOT_MODEL_RETRY_MINUTES: raw })).toThrow(/^CREWBOT_MODEL_RETRY_MINUTES must be/));
});

describe("runAgent: retries", () => {
  const overloaded = { error: { status: 529, message: "Overloaded" } };

  it("outlasts a 529 beyond the SDK's two retries, telling each wait", async () => {
    const h = await harness([overloaded, overloaded, overloaded, { text: "answered" }]);
    const result = await h.run();

    expect(result).toMatchObject({ stopReason: "done", text: "answered", turns: 1 });
    expect(h.fake.requests).toHaveLength(4);
    // Exponential backoff with jitter (random fixed at 0.5 here): 750, 1500, 3000 ms.
    expect(h.retryClock.waits).toEqual([750, 1500, 3000]);
    const waits = h.events.filter((e) => e.type === "model_wait");
    expect(waits).toEqual([
      { type: "model_wait", agent: "tester", attempt: 1, waitMs: 750, reason: "529 overloaded_error: Overloaded" },
      { type: "model_wait", agent: "tester", attempt: 2, waitMs: 1500, reason: "529 overloaded_error: Overloaded" },
      { type: "model_wait", agent: "tester", attempt: 3, waitMs: 3000, reason: "529 overloaded_error: Overloaded" },
    ]);
    // Only the answer was priced: a refused request costs nothing.
    expect(h.events.filter((e) => e.type === "usage")).toHaveLength(1);
  });

  it("honours retry-after on a 429, and retry-after-ms", async () => {
    const h = await harness([
      { error: { status: 429, message: "Slow down", headers: { "retry-after": "7" } } },
      { error: { status: 429, message: "Slow down", headers: { "retry-after-ms": "2500" } } },
      { text: "fine" },
    ]);
    expect(await h.run()).toMatchObject({ stopReason: "done", text: "fine" });
    expect(h.retryClock.waits).toEqual([7000, 2500]);
  });

  it("gives up at once when retry-after asks for longer than the window left", async () => {
    const h = await harness([{ error: { status: 429, message: "Slow down", headers: { "retry-after": "3600" } } }]);
    const result = await h.run();
    expect(result.error).toBe(
      "provider error: 429 Slow down (still failing after 1 attempt over 0 s; CREWBOT_MODEL_RETRY_MINUTES is 10 min)",
    );
    expect(h.retryClock.waits).toEqual([]);
  });

  it("drops a reply cut by an overloaded_error event mid-stream and asks again: the text is not doubled", async () => {
    const answer = "The answer is forty-two, as computed.";
    const h = await harness([
      // message_start, content_block_start, ping, then two of the three text deltas, then the error.
      { text: answer, streamError: { type: "overloaded_error", message: "Overloaded", afterEvents: 4 } },
      { text: answer },
    ]);
    const result = await h.run();

    expect(result).toMatchObject({ stopReason: "done", text: answer, turns: 1 });
    expect(h.fake.requests).toHaveLength(2);
    expect(h.fake.requests[1]!.body.messages).toEqual(h.fake.requests[0]!.body.messages); // the same request again
    const streamed = h.events.flatMap((e) => (e.type === "text" ? [e.text] : [])).join("");
    expect(streamed.length).toBeGreaterThan(answer.length); // the dropped part did stream…
    expect(h.events.find((e) => e.type === "model_wait")).toMatchObject({ reason: "529 overloaded_error: Overloaded" });
  });

  it("retries a connection cut in the middle of a reply", async () => {
    const h = await harness([{ text: "partial then gone", dropAfterEvents: 3 }, { text: "whole" }]);
    const result = await h.run();
    expect(result).toMatchObject({ stopReason: "done", text: "whole" });
    expect(h.events.find((e) => e.type === "model_wait")).toMatchObject({ attempt: 1, reason: expect.stringMatching(/^connection/) });
  });

  it("retries the summary request of a compaction too", async () => {
    const big = "x".repeat(8000);
    const turns = [
      { content: [toolUse("read", { path: "a" })] },
      { content: [toolUse("read", { path: "b" })] },
      { content: [toolUse("read", { path: "c" })] },
      { text: "done" },
    ];
    let summaries = 0;
    // The summary request is the one without tools: its first try is overloaded.
    const h = await harness(
      (request) => {
        if (!request.body.tools) return summaries++ === 0 ? overloaded : { text: "summary of a and b" };
        return turns.shift();
      },
      { tools: [readTool(() => big)] },
    );
    // Outputs are stubbed first (8 KB each), so a window this small needs a summary as well.
    const result = await h.run({ contextWindow: 2500, reserveTokens: 100 });
    expect(result).toMatchObject({ stopReason: "done", text: "done" });
    expect(h.events.filter((e) => e.type === "model_wait")).toHaveLength(1);
    const summaryRequests = h.fake.requests.filter((r) => !r.body.tools);
    expect(summaryRequests.length).toBeGreaterThanOrEqual(2);
    expect(summaryRequests[1]!.body).toEqual(summaryRequests[0]!.body); // the same request again
    expect(JSON.stringify(h.fake.requests[h.fake.requests.length - 1]!.body.messages)).toContain("summary of a and b");
  });

  it("stops at once when cancelled during a backoff", async () => {
    const h = await harness([{ error: { status: 529, message: "Overloaded", headers: { "retry-after": "300" } } }], {
      retry: { sleep: abortableSleep, now: Date.now },
    });
    const controller = new AbortController();
    const result = await h.run({
      signal: controller.signal,
      emit: (e) => {
        h.events.push(e);
        if (e.type === "model_wait") controller.abort();
      },
    });
    expect(result).toMatchObject({ stopReason: "aborted", error: "aborted" });
    expect(h.fake.requests).toHaveLength(1);
  });

  it("stops at the time budget during a backoff: waiting counts toward maxMinutes", async () => {
    const h = await harness([{ error: { status: 529, message: "Overloaded", headers: { "retry-after": "300" } } }], {
      retry: { sleep: abortableSleep, now: Date.now },
      budgets: { maxMinutes: 0.005 }, // 300 ms
    });
    const result = await h.run();
    expect(result).toMatchObject({ stopReason: "budget", budget: "maxMinutes" });
    expect(h.events.some((e) => e.type === "model_wait")).toBe(true);
    expect(h.fake.requests).toHaveLength(1);
  });
});

describe("runAgent: prompt too long", () => {
  const output = "y".repeat(8000); // ~2000 tokens per read, as the fake counts

  it("compacts by the API's own count and tries once more", async () => {
    const h = await harness(
      [
        { content: [toolUse("read", { path: "a" })] },
        { content: [toolUse("read", { path: "b" })] },
        { content: [toolUse("read", { path: "c" })] },
        { text: "done" },
      ],
      { tools: [readTool(() => output)], fake: { maxPromptTokens: 5000 } },
    );
    // Our window is far larger: only the API knows this request is too long.
    const result = await h.run({ contextWindow: 1_000_000, reserveTokens: 500 });

    expect(result).toMatchObject({ stopReason: "done", text: "done", turns: 4 });
    const tooLong = h.fake.requests.filter((r) => r.tooLong !== undefined);
    expect(tooLong).toHaveLength(1);
    expect(h.events.filter((e) => e.type === "compaction")).toMatchObject([{ kind: "prune", beforeTokens: tooLong[0]!.tooLong }]);
    const retried = h.fake.requests[h.fake.requests.length - 1]!.body;
    expect(JSON.stringify(retried.messages)).toContain(PRUNED_PREFIX);
    expect(h.budget.turns).toBe(4); // the refused request is not a turn of its own
  });

  it("ends with the API's message when compaction cannot make it fit", async () => {
    const h = await harness([{ error: { status: 400, message: "prompt is too long: 210000 tokens > 200000 maximum" } }, { error: { status: 400, message: "prompt is too long: 210000 tokens > 200000 maximum" } }]);
    const result = await h.run();
    expect(result.error).toBe("provider error: 400 prompt is too long: 210000 tokens > 200000 maximum");
    expect(h.fake.requests).toHaveLength(2);
  });
});
