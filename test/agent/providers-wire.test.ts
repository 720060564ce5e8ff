/**
 * The model loop through each cloud provider's SDK client (createClient with its environment)
 * against a local stand-in of that provider's wire (helpers/fake-providers.ts): streamed text and
 * tool calls, the model id mapped, the body redacted before it is signed, the provider's own
 * overloads retried by our policy (on a fake clock: nothing sleeps), the start-up model check.
 */
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BudgetTracker, DEFAULT_BUDGETS } from "../../src/agent/budget.js";
import type { AgentEvent } from "../../src/agent/events.js";
import { runAgent } from "../../src/agent/loop.js";
import { checkConfiguredModels } from "../../src/agent/model-list.js";
import { restoreOperatorModelIds, setOperatorModelIds } from "../../src/agent/model-ids.js";
import { createClient } from "../../src/agent/provider.js";
import type { RunAgentOptions } from "../../src/agent/types.js";
import { startFakeProvider, type ProviderFake, type ProviderFakeOptions, type ProviderKind } from "../helpers/fake-providers.js";
import type { Script } from "../helpers/fake-anthropic.js";
import { fakeRetryClock, readTool, toolContext, toolUse } from "./harness.js";

let fakes: ProviderFake[] = [];
let restoreIds: ReturnType<typeof setOperatorModelIds> | undefined;
afterEach(async () => {
  if (restoreIds) restoreOperatorModelIds(restoreIds);
  restoreIds = undefined;
  const open = fakes;
  fakes = [];
  for (const fake of open) await fake.close();
});

async function provider(kind: ProviderKind, script: Script, options: ProviderFakeOptions & { env?: NodeJS.ProcessEnv } = {}) {
  const fake = await startFakeProvider(kind, script, options);
  fakes.push(fake);
  const retryClock = fakeRetryClock();
  const client = createClient({ env: { ...fake.env, ...options.env }, retry: retryClock.policy });
  const events: AgentEvent[] = [];
  const run = (overrides: Partial<RunAgentOptions> = {}) =>
    runAgent({
      agent: "tester",
      model: "claude-haiku-4-5",
      system: "You are a test agent.",
      prompt: "Do the task.",
      tools: [],
      toolContext: toolContext(),
      budget: new BudgetTracker(DEFAULT_BUDGETS),
      client,
      emit: (event) => events.push(event),
      ...overrides,
    });
  return { fake, client, retryClock, events, run };
}

const KINDS: ProviderKind[] = ["bedrock", "vertex", "foundry"];

/** Where each provider was asked for claude-haiku-4-5, by the bundled table. */
const ASKED: Record<ProviderKind, { path: RegExp; model: string }> = {
  bedrock: { path: /^\/model\/global\.anthropic\.claude-haiku-4-5-20251001-v1(?::|%3A)0\/invoke-with-response-stream$/, model: "global.anthropic.claude-haiku-4-5-20251001-v1:0" },
  vertex: { path: /^\/v1\/projects\/crewbot-test\/locations\/us-east5\/publishers\/anthropic\/models\/claude-haiku-4-5@20251001:streamRawPredict$/, model: "claude-haiku-4-5@20251001" },
  foundry: { path: /^\/anthropic\/v1\/messages$/, model: "claude-haiku-4-5" },
};

describe.each(KINDS)("%s", (kind) => {
  it("streams a reply and a tool call through the provider's own wire, asking for its model id", async () => {
    const p = await provider(kind, [{ content: [toolUse("read", { path: "a.txt" })] }, { text: "Read it: all fine." }]);
    const result = await p.run({ tools: [readTool()] });

    expect(result).toMatchObject({ stopReason: "done", text: "Read it: all fine.", turns: 2 });
    expect(p.fake.requests).toHaveLength(2);
    for (const request of p.fake.requests) {
      expect(request.path).toMatch(ASKED[kind].path);
      expect(request.model).toBe(ASKED[kind].model);
    }
    // The second request carries the tool's result: the streamed tool call was whole.
    expect(JSON.stringify(p.fake.requests[1]!.body.messages)).toContain("contents of a.txt");
    expect(p.events.filter((e) => e.type === "text").map((e) => (e as { text: string }).text).join("")).toBe("Read it: all fine.");
    // Priced under Anthropic's name, whatever the provider called the model.
    expect(result.costUsd).toBeGreaterThan(0);
    expect(result.estimate).toBe(false);
  });

  it("sends every body redacted of the operator's secrets (before Bedrock signs it)", async () => {
    const p = await provider(kind, [{ text: "ok" }], { env: { CREWBOT_NPM_TOKEN: "npm-secret-4f9c2d7e81" } });
    await p.run({ prompt: "The token is npm-secret-4f9c2d7e81 and the key ghp_abcdefghijklmnopqrstuvwxyz0123456789." });
    const wire = JSON.stringify(p.fake.requests[0]!.wire);
    expect(wire).not.toContain("npm-secret-4f9c2d7e81");
    expect(wire).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123456789");
    expect(wire).toContain("[redacted]");
    expect(p.fake.rejections).toEqual([]); // the signature covers the redacted body
  });

  it("its model check says it is skipped, in one line (and Bedrock names a model it has no id for)", async () => {
    const p = await provider(kind, []);
    const lines: string[] = [];
    const models = ["claude-haiku-4-5", "claude-new-model", "us.anthropic.claude-sonnet-4-20250514-v1:0"];
    const unknown = await checkConfiguredModels(p.client, models, { info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`) });
    const skipped = `info CREWBOT_MODEL_PROVIDER=${kind} has no model list: configured models not checked`;
    if (kind !== "bedrock") {
      expect(unknown).toEqual([]);
      expect(lines).toEqual([skipped]);
      return;
    }
    // Bedrock names no model as Anthropic does: one the table cannot map is named (a Bedrock id as written is taken as one).
    expect(unknown).toEqual(["claude-new-model"]);
    expect(lines).toEqual([skipped, 'warn model "claude-new-model" has no bedrock id (the bundled table or CREWBOT_MODEL_IDS): it is sent as written, and jobs using it will fail']);
  });

  it("the operator's model id wins over the table", async () => {
    const id = { bedrock: "eu.anthropic.claude-haiku-4-5-20251001-v1:0", vertex: "claude-haiku-4-5@20251001", foundry: "haiku-deployment" }[kind];
    restoreIds = setOperatorModelIds({ "claude-haiku-4-5": { [kind]: id } });
    const p = await provider(kind, [{ text: "ok" }]);
    await p.run();
    expect(p.fake.requests[0]!.model).toBe(id);
  });
});

describe("Bedrock's overloads and errors", () => {
  it("retries a ThrottlingException (429) and a ServiceUnavailableException (503), honouring our backoff", async () => {
    const p = await provider("bedrock", [
      { error: { status: 429, message: "Too many requests, please wait before trying again." } },
      { error: { status: 503, message: "Bedrock is unable to process your request." } },
      { text: "answered" },
    ]);
    expect(await p.run()).toMatchObject({ stopReason: "done", text: "answered" });
    expect(p.retryClock.waits).toEqual([750, 1500]);
    expect(p.events.filter((e) => e.type === "model_wait").map((e) => (e as { reason: string }).reason)).toEqual([
      "429: Too many requests, please wait before trying again.",
      "503: Bedrock is unable to process your request.",
    ]);
  });

  it("drops a reply broken by a modelStreamErrorException inside the event stream, and asks again", async () => {
    const answer = "The answer is forty-two, as computed.";
    const p = await provider("bedrock", [{ text: answer, streamError: { type: "modelStreamErrorException", message: "The model stream was interrupted.", afterEvents: 4 } }, { text: answer }]);
    const result = await p.run();
    expect(result).toMatchObject({ stopReason: "done", text: answer });
    expect(p.fake.requests).toHaveLength(2);
    expect(p.events.find((e) => e.type === "model_wait")).toMatchObject({ attempt: 1, reason: "424 modelStreamErrorException: The model stream was interrupted." });
  });

  it("retries a throttlingException inside the stream as a 429", async () => {
    const p = await provider("bedrock", [{ text: "x", streamError: { type: "throttlingException", message: "Too many tokens, please wait before trying again." } }, { text: "fine" }]);
    expect(await p.run()).toMatchObject({ stopReason: "done", text: "fine" });
    expect(p.events.find((e) => e.type === "model_wait")).toMatchObject({ reason: "429 throttlingException: Too many tokens, please wait before trying again." });
  });

  it("does not retry a ValidationException, and says what Bedrock said", async () => {
    const p = await provider("bedrock", [{ error: { status: 400, message: "Input is too long for requested model." } }]);
    const result = await p.run();
    expect(result.error).toBe("provider error: 400 Input is too long for requested model.");
    expect(p.fake.requests).toHaveLength(1);
  });

  it("knows Amazon's 400 for a prompt over the window: compacts once, then ends with Bedrock's words", async () => {
    const tooLong = { error: { status: 400, message: "prompt is too long: 210000 tokens > 200000 maximum" } };
    const p = await provider("bedrock", [tooLong, tooLong]);
    const result = await p.run();
    expect(result.error).toBe("provider error: 400 prompt is too long: 210000 tokens > 200000 maximum");
    expect(p.fake.requests).toHaveLength(2); // the second after a compaction, as on Anthropic's API
  });

  it("refuses a model the table does not map, as Bedrock does (no retry)", async () => {
    const p = await provider("bedrock", [], { expectRejections: true });
    const result = await p.run({ model: "claude-unknown-9" });
    expect(result.error).toBe("provider error: 400 The provided model identifier is invalid.");
    expect(p.fake.rejections).toHaveLength(1);
  });
});

describe("Vertex AI's overloads and its token", () => {
  it("the start-up check says when Google's chain gives no token", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "crewbot-gcp-"));
    const fake = await startFakeProvider("vertex", [], { expectRejections: true });
    fakes.push(fake);
    await writeFile(path.join(dir, "subject"), "not-the-subject-token");
    const file = path.join(dir, "credentials.json");
    const original = JSON.parse(await readFile(fake.env.GOOGLE_APPLICATION_CREDENTIALS!, "utf8")) as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ ...original, credential_source: { file: path.join(dir, "subject") } }));
    const client = createClient({ env: { ...fake.env, GOOGLE_APPLICATION_CREDENTIALS: file } });
    const lines: string[] = [];
    await checkConfiguredModels(client, ["claude-haiku-4-5"], { info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`) });
    expect(lines[1]).toMatch(/^warn CREWBOT_MODEL_PROVIDER=vertex finds no credentials \(.+\): every model request will fail until it does$/);
    expect(fake.rejections).toEqual(["token exchange: invalid subject token"]);
  });


  it("retries 429 RESOURCE_EXHAUSTED and the model's 529, on one token from the exchange", async () => {
    const p = await provider("vertex", [
      { error: { status: 429, message: "Resource exhausted. Please try again later." } },
      { error: { status: 529, type: "overloaded_error", message: "Overloaded" } },
      { text: "answered" },
    ]);
    expect(await p.run()).toMatchObject({ stopReason: "done", text: "answered" });
    expect(p.events.filter((e) => e.type === "model_wait").map((e) => (e as { reason: string }).reason)).toEqual([
      "429: Resource exhausted. Please try again later.",
      "529 overloaded_error: Overloaded",
    ]);
    expect(p.fake.tokenRequests).toBe(1);
    for (const request of p.fake.requests) {
      expect(request.wire.anthropic_version).toBe("vertex-2023-10-16");
      expect(request.wire).not.toHaveProperty("model");
    }
  });

  it("drops a reply cut by an overloaded_error event and asks again", async () => {
    const p = await provider("vertex", [{ text: "partial text here", streamError: { type: "overloaded_error", message: "Overloaded", afterEvents: 3 } }, { text: "whole" }]);
    expect(await p.run()).toMatchObject({ stopReason: "done", text: "whole" });
    expect(p.fake.requests).toHaveLength(2);
  });
});

describe("Foundry's overloads", () => {
  it("retries 429 honouring retry-after, and 529", async () => {
    const p = await provider("foundry", [
      { error: { status: 429, message: "Rate limit reached", headers: { "retry-after": "7" } } },
      { error: { status: 529, message: "Overloaded" } },
      { text: "answered" },
    ]);
    expect(await p.run()).toMatchObject({ stopReason: "done", text: "answered" });
    expect(p.retryClock.waits).toEqual([7000, 1500]);
    expect(p.fake.requests.every((r) => r.headers["x-api-key"] === p.fake.env.ANTHROPIC_FOUNDRY_API_KEY)).toBe(true);
  });

  it("a wrong key is refused and not retried", async () => {
    const p = await provider("foundry", [], { expectRejections: true, env: { ANTHROPIC_FOUNDRY_API_KEY: "wrong" } });
    const result = await p.run();
    expect(result.error).toMatch(/^provider error: 401 /);
    expect(p.fake.rejections).toHaveLength(1);
  });
});
