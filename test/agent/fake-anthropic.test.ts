import Anthropic, { APIError } from "@anthropic-ai/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { fakeClient, promptTooLong, signThinking, startFakeAnthropic, type FakeServer } from "../helpers/fake-anthropic.js";

const tool = { name: "read", description: "Read a file", input_schema: { type: "object" as const, properties: {} } };

let fake: FakeServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe("fake Anthropic server", () => {
  it("streams text and two tool_use blocks that the real SDK assembles into the expected message", async () => {
    fake = await startFakeAnthropic([
      {
        content: [
          { type: "text", text: "Let me look at both files." },
          { type: "tool_use", id: "toolu_a", name: "read", input: { path: "src/a.ts", limit: 20 } },
          { type: "tool_use", id: "toolu_b", name: "read", input: { path: "src/b.ts", nested: { x: [1, 2] } } },
        ],
        usage: { input_tokens: 100, output_tokens: 42, cache_read_input_tokens: 7, cache_creation_input_tokens: 3 },
      },
    ]);
    const client = fakeClient(fake.url);
    const stream = client.messages.stream({
      model: "claude-haiku-4-5",
      max_tokens: 100,
      tools: [tool],
      messages: [{ role: "user", content: "hi" }],
    });
    let streamed = "";
    stream.on("text", (delta) => (streamed += delta));
    const message = await stream.finalMessage();

    expect(streamed).toBe("Let me look at both files.");
    expect(message.stop_reason).toBe("tool_use");
    expect(message.content).toMatchObject([
      { type: "text", text: "Let me look at both files." },
      { type: "tool_use", id: "toolu_a", name: "read", input: { path: "src/a.ts", limit: 20 } },
      { type: "tool_use", id: "toolu_b", name: "read", input: { path: "src/b.ts", nested: { x: [1, 2] } } },
    ]);
    expect(message.usage).toMatchObject({
      input_tokens: 100,
      output_tokens: 42,
      cache_read_input_tokens: 7,
      cache_creation_input_tokens: 3,
    });
    expect(fake.requests[0]?.body.stream).toBe(true);
    // This SDK version sends the key as a bearer token; either header counts as the API's auth.
    const headers = fake.requests[0]?.headers ?? {};
    expect(headers["x-api-key"] ?? headers.authorization).toContain("test");
    expect(headers["anthropic-version"]).toBeTruthy();
  });

  it("answers without stream with the JSON message, and defaults usage from the request size", async () => {
    fake = await startFakeAnthropic([{ text: "plain" }]);
    const message = await fakeClient(fake.url).messages.create({
      model: "m",
      max_tokens: 10,
      messages: [{ role: "user", content: "x".repeat(400) }],
    });
    expect(message.content).toMatchObject([{ type: "text", text: "plain" }]);
    expect(message.stop_reason).toBe("end_turn");
    expect(message.usage.input_tokens).toBeGreaterThan(100);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
  });

  it.each([
    [
      "a tool_result that answers no tool_use of the previous message",
      [
        { role: "user", content: "hi" },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "read", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_2", content: "x" }] },
      ],
      "tool_use",
    ],
    [
      "a tool_use left without its tool_result",
      [
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "toolu_1", name: "read", input: {} },
            { type: "tool_use", id: "toolu_2", name: "read", input: {} },
          ],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "x" }] },
      ],
      "toolu_2",
    ],
    ["messages starting with assistant", [{ role: "assistant", content: "hi" }], "first message"],
    [
      "two user messages in a row",
      [
        { role: "user", content: "a" },
        { role: "user", content: "b" },
      ],
      "alternate",
    ],
  ])("rejects %s with the API's 400", async (_name, messages, mention) => {
    fake = await startFakeAnthropic([], { expectRejections: true });
    const call = fakeClient(fake.url).messages.create({
      model: "m",
      max_tokens: 10,
      tools: [tool],
      messages: messages as Anthropic.MessageParam[],
    });
    const err = await call.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as APIError).type).toBe("invalid_request_error");
    expect((err as APIError).message).toContain(mention);
    expect(fake.rejections).toHaveLength(1);
  });

  it("rejects more than 4 cache breakpoints", async () => {
    fake = await startFakeAnthropic([], { expectRejections: true });
    const cc = { type: "ephemeral" as const };
    const err = await fakeClient(fake.url)
      .messages.create({
        model: "m",
        max_tokens: 10,
        system: [
          { type: "text", text: "a", cache_control: cc },
          { type: "text", text: "b", cache_control: cc },
        ],
        tools: [{ ...tool, cache_control: cc }],
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "c", cache_control: cc },
              { type: "text", text: "d", cache_control: cc },
            ],
          },
        ],
      })
      .catch((e: unknown) => e);
    expect((err as APIError).status).toBe(400);
    expect((err as APIError).message).toContain("Found 5");
  });

  it("sends scripted errors with the API's error body and headers", async () => {
    fake = await startFakeAnthropic([{ error: { status: 529, headers: { "retry-after-ms": "1" } } }]);
    const err = (await fakeClient(fake.url)
      .messages.create({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "x" }] })
      .catch((e: unknown) => e)) as APIError;
    expect(err.status).toBe(529);
    expect(err.type).toBe("overloaded_error");
    expect(err.headers?.get("retry-after-ms")).toBe("1");
  });

  it("fails loudly when the script runs out", async () => {
    const server = await startFakeAnthropic([]);
    const err = await fakeClient(server.url)
      .messages.create({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "x" }] })
      .catch((e: unknown) => e);
    expect((err as APIError).message).toContain("script exhausted");
    await expect(server.close()).rejects.toThrow("script exhausted");
  });

  /** The raw SSE text of one streamed request. */
  async function rawStream(url: string): Promise<string> {
    const response = await fetch(`${url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "k", "content-type": "application/json" },
      body: JSON.stringify({ model: "m", max_tokens: 10, stream: true, messages: [{ role: "user", content: "x" }] }),
    });
    return response.text();
  }

  it("sends an overloaded_error event after some deltas, as the API does, and nothing after it", async () => {
    fake = await startFakeAnthropic([{ text: "one two three", streamError: { type: "overloaded_error", message: "Overloaded", afterEvents: 3 } }]);
    const events = (await rawStream(fake.url)).trim().split("\n\n").map((e) => e.split("\n")[0]);
    expect(events).toEqual(["event: message_start", "event: content_block_start", "event: ping", "event: content_block_delta", "event: error"]);
  });

  it("the SDK turns that event into an APIError of type overloaded_error, after the text streamed", async () => {
    fake = await startFakeAnthropic([{ text: "one two three", streamError: { type: "overloaded_error", message: "Overloaded", afterEvents: 3 } }]);
    const stream = fakeClient(fake.url).messages.stream({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "x" }] });
    let text = "";
    stream.on("text", (t) => (text += t));
    const err = (await stream.finalMessage().catch((e: unknown) => e)) as APIError;
    expect(err).toBeInstanceOf(APIError);
    expect(err.type).toBe("overloaded_error");
    expect(text.length).toBeGreaterThan(0);
  });

  it("cuts the connection mid-stream when told to", async () => {
    fake = await startFakeAnthropic([{ text: "one two three", dropAfterEvents: 3 }]);
    const stream = fakeClient(fake.url).messages.stream({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "x" }] });
    const err = await stream.finalMessage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
  });

  it("streams thinking with its signature, which the SDK assembles", async () => {
    fake = await startFakeAnthropic([{ content: [{ type: "thinking", thinking: "Let me think." }, { type: "redacted_thinking", data: "opaque" }, { type: "text", text: "Done." }] }]);
    const message = await fakeClient(fake.url)
      .messages.stream({ model: "m", max_tokens: 4096, thinking: { type: "enabled", budget_tokens: 1024 }, messages: [{ role: "user", content: "x" }] })
      .finalMessage();
    expect(message.content.map((b) => b.type)).toEqual(["thinking", "redacted_thinking", "text"]);
    expect(message.content[0]).toMatchObject({ thinking: "Let me think.", signature: signThinking("Let me think.") });
    expect(message.content[1]).toMatchObject({ data: "opaque" });
  });

  it("answers prompt too long as the API does, scripted or over maxPromptTokens", async () => {
    fake = await startFakeAnthropic([promptTooLong(210_000)], { maxPromptTokens: 50 });
    const client = fakeClient(fake.url);
    const scripted = (await client.messages.create({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e)) as APIError;
    expect(scripted.status).toBe(400);
    expect(scripted.apiMessage).toBe("prompt is too long: 210000 tokens > 200000 maximum");
    const big = (await client.messages.create({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "y".repeat(1000) }] }).catch((e: unknown) => e)) as APIError;
    expect(big.type).toBe("invalid_request_error");
    expect(big.apiMessage).toMatch(/^prompt is too long: \d+ tokens > 50 maximum$/);
    expect(fake.requests[1]!.tooLong).toBeGreaterThan(50);
  });
});
