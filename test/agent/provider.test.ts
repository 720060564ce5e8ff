import Anthropic, { APIConnectionError, APIError } from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { defaultSummarizeArgs, safeSummary } from "../../src/agent/args.js";
import { createClient, describeProviderError, hasApiKey } from "../../src/agent/provider.js";

describe("hasApiKey / createClient", () => {
  it.each([
    [{ ANTHROPIC_API_KEY: "sk-x" }, true],
    [{ ANTHROPIC_API_KEY: "  " }, false],
    [{}, false],
  ])("hasApiKey(%j) = %s", (env, expected) => expect(hasApiKey(env)).toBe(expected));

  it("reads the key and base URL from the environment, keeping the SDK's retries on", () => {
    const client = createClient({ env: { ANTHROPIC_API_KEY: "sk-x", ANTHROPIC_BASE_URL: "http://127.0.0.1:9/" } });
    expect(client).toBeInstanceOf(Anthropic);
    expect(client.baseURL).toBe("http://127.0.0.1:9/");
    expect(client.maxRetries).toBe(2);
  });

  it("prefers explicit options", () => {
    const client = createClient({ apiKey: "k", baseURL: "http://localhost:1", maxRetries: 5, env: { ANTHROPIC_BASE_URL: "http://other" } });
    expect(client.baseURL).toBe("http://localhost:1");
    expect(client.maxRetries).toBe(5);
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
  ])("%s", (_name, err, expected) => expect(describeProviderError(err)).toBe(expected));
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
