import Anthropic, { APIConnectionError, APIError } from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { defaultSummarizeArgs, safeSummary } from "../../src/agent/args.js";
import { retryPolicyOf } from "../../src/agent/model-call.js";
import { createClient, describeProviderError, hasModelAccess, promptTooLong } from "../../src/agent/provider.js";
import { ModelRetriesExhausted } from "../../src/agent/retry.js";

describe("hasModelAccess / createClient", () => {
  it.each([
    [{ ANTHROPIC_API_KEY: "sk-x" }, true],
    [{ ANTHROPIC_API_KEY: "  " }, false],
    [{}, false],
  ])("hasModelAccess(%j) = %s", (env, expected) => expect(hasModelAccess(env)).toBe(expected));

  it("reads the key and base URL from the environment, with the SDK's own retries off (ours apply)", () => {
    const client = createClient({ env: { ANTHROPIC_API_KEY: "sk-x", ANTHROPIC_BASE_URL: "http://127.0.0.1:9/" } });
    expect(client).toBeInstanceOf(Anthropic);
    expect(client.baseURL).toBe("http://127.0.0.1:9/");
    expect(client.maxRetries).toBe(0);
    expect(retryPolicyOf(client).maxMs).toBe(10 * 60_000);
  });

  it("prefers explicit options", () => {
    const client = createClient({ apiKey: "k", baseURL: "http://localhost:1", retry: { maxMs: 5000 }, env: { ANTHROPIC_BASE_URL: "http://other" } });
    expect(client.baseURL).toBe("http://localhost:1");
    expect(client.maxRetries).toBe(0);
    expect(retryPolicyOf(client).maxMs).toBe(5000);
  });

  it("refuses to guess credentials when no key is given", () => {
    expect(() => createClient({ env: {} })).toThrow("ANTHROPIC_API_KEY is not set");
  });
});

describe("describeProviderError", () => {
  const body = (type: string, message: string) => ({ type: "error", error: { type, message } });
  it.each<[string, unknown, string]>([
    ["HTTP error", APIError.generate(529, body("overloaded_error", "Overloaded"), undefined, new Headers()), "provider error: 529 Overloaded"],
    ["stream error (no status)", new APIError(undefined, body("overloaded_error", "Overloaded"), undefined, new Headers()), "provider error: 529 Overloaded"],
    ["connection error", new APIConnectionError({ message: "Connection error." }), "provider error: Connection error."],
    ["anything else", new Error("socket hang up"), "provider error: socket hang up"],
    [
      "retries used up",
      new ModelRetriesExhausted(APIError.generate(529, body("overloaded_error", "Overloaded"), undefined, new Headers()), 14, 590_000, 600_000),
      "provider error: 529 Overloaded (still failing after 14 attempts over 9.8 min; CREWBOT_MODEL_RETRY_MINUTES is 10 min)",
    ],
  ])("%s", (_name, err, expected) => expect(describeProviderError(err)).toBe(expected));
});

describe("promptTooLong", () => {
  const error = (status: number, message: string) =>
    APIError.generate(status, { type: "error", error: { type: status === 400 ? "invalid_request_error" : "api_error", message } }, undefined, new Headers());
  it.each<[string, unknown, ReturnType<typeof promptTooLong>]>([
    ["the API's counts", error(400, "prompt is too long: 210000 tokens > 200000 maximum"), { tokens: 210000, maximum: 200000 }],
    ["no counts", error(400, "prompt is too long"), { tokens: Number.MAX_SAFE_INTEGER }],
    ["another 400", error(400, "max_tokens: Field required"), undefined],
    ["not a 400", error(500, "prompt is too long: 1 tokens > 0 maximum"), undefined],
    ["not an API error", new Error("prompt is too long: 5 tokens > 1 maximum"), undefined],
  ])("%s", (_name, err, expected) => expect(promptTooLong(err)).toEqual(expected));
});

describe("defaultSummarizeArgs", () => {
  it.each<[unknown, string]>([
    [{ path: "src/a.ts", limit: 3 }, "src/a.ts"],
    [{ command: "npm test\n  -- --watch=false" }, "npm test -- --watch=false"],
    [{ pattern: "TODO", path: "src" }, "TODO"],
    [{ oldText: "a" }, '{"oldText":"a"}'],
    [{ content: "x".repeat(200) }, `{"content":"${"x".repeat(67)}…`],
    [null, ""],
  ])("%j → %j", (input, expected) => expect(defaultSummarizeArgs("t", input)).toBe(expected));

  it("falls back when an injected summarizer throws", () => {
    const broken = () => {
      throw new Error("bug");
    };
    expect(safeSummary(broken, "read", { path: "a" })).toBe("a");
  });
});
