/** CREWBOT_MODEL_PROVIDER: the start-up checks, the model-id table and its override file, and the providers' prices. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyModelSettings } from "../../src/agent/model-settings.js";
import { loadModelIds, parseModelIds } from "../../src/agent/model-ids-file.js";
import { providerModelId, restoreOperatorModelIds, setOperatorModelIds } from "../../src/agent/model-ids.js";
import { priceOf, setProviderPricing } from "../../src/agent/pricing.js";
import { createClient, hasModelAccess, providerOf } from "../../src/agent/provider.js";
import { configuredProvider, priceFactor, PROVIDER_NAMES } from "../../src/agent/providers.js";

let restoreIds: ReturnType<typeof setOperatorModelIds> | undefined;
let restorePricing: ReturnType<typeof setProviderPricing> | undefined;
afterEach(() => {
  if (restoreIds) restoreOperatorModelIds(restoreIds);
  if (restorePricing) setProviderPricing(restorePricing);
  restoreIds = restorePricing = undefined;
});

const BEDROCK = { CREWBOT_MODEL_PROVIDER: "bedrock", AWS_REGION: "eu-west-1" };
/**
 * A credentials file, so that making a Vertex client never looks for Google's metadata server: the
 * token is asked of a loopback address nobody serves (no request is made in these tests).
 */
function googleCredentials(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "crewbot-gcp-"));
  writeFileSync(path.join(dir, "subject"), "subject-token");
  const file = path.join(dir, "credentials.json");
  const credentials = {
    type: "external_account",
    audience: "//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/p/providers/q",
    subject_token_type: "urn:ietf:params:oauth:token-type:jwt",
    token_url: "http://127.0.0.1:9/v1/token",
    credential_source: { file: path.join(dir, "subject") },
  };
  writeFileSync(file, JSON.stringify(credentials));
  return file;
}
const VERTEX = { CREWBOT_MODEL_PROVIDER: "vertex", CLOUD_ML_REGION: "us-east5", ANTHROPIC_VERTEX_PROJECT_ID: "p", GOOGLE_APPLICATION_CREDENTIALS: googleCredentials() };
const FOUNDRY = { CREWBOT_MODEL_PROVIDER: "foundry", ANTHROPIC_FOUNDRY_RESOURCE: "r", ANTHROPIC_FOUNDRY_API_KEY: "k" };

describe("configuredProvider", () => {
  it.each<[Record<string, string>, string]>([
    [{}, "anthropic"],
    [{ CREWBOT_MODEL_PROVIDER: "  " }, "anthropic"],
    [{ CREWBOT_MODEL_PROVIDER: "Bedrock", AWS_REGION: "us-east-1" }, "bedrock"],
    [VERTEX, "vertex"],
    [FOUNDRY, "foundry"],
    [{ CREWBOT_MODEL_PROVIDER: "foundry", ANTHROPIC_FOUNDRY_BASE_URL: "http://127.0.0.1:9/anthropic/" }, "foundry"],
  ])("%j → %s", (env, name) => expect(configuredProvider(env)).toBe(name));

  it.each<[string, Record<string, string>, string]>([
    ["an unknown provider", { CREWBOT_MODEL_PROVIDER: "azure" }, 'CREWBOT_MODEL_PROVIDER must be one of anthropic, bedrock, vertex, foundry; got "azure"'],
    ["bedrock without a region", { CREWBOT_MODEL_PROVIDER: "bedrock" }, "CREWBOT_MODEL_PROVIDER=bedrock needs AWS_REGION, which is not set"],
    ["vertex without a region", { CREWBOT_MODEL_PROVIDER: "vertex", ANTHROPIC_VERTEX_PROJECT_ID: "p" }, "CREWBOT_MODEL_PROVIDER=vertex needs CLOUD_ML_REGION, which is not set"],
    ["vertex without a project", { CREWBOT_MODEL_PROVIDER: "vertex", CLOUD_ML_REGION: "global", ANTHROPIC_VERTEX_PROJECT_ID: " " }, "CREWBOT_MODEL_PROVIDER=vertex needs ANTHROPIC_VERTEX_PROJECT_ID, which is not set"],
    ["foundry without a resource", { CREWBOT_MODEL_PROVIDER: "foundry", ANTHROPIC_FOUNDRY_API_KEY: "k" }, "CREWBOT_MODEL_PROVIDER=foundry needs one of ANTHROPIC_FOUNDRY_RESOURCE or ANTHROPIC_FOUNDRY_BASE_URL, which is not set"],
  ])("%s stops the app naming the variable", (_name, env, message) => {
    expect(() => configuredProvider(env)).toThrow(message);
    expect(() => applyModelSettings(env)).toThrow(message);
    expect(() => createClient({ env })).toThrow(message);
  });

  it("names every provider in the table", () => expect(PROVIDER_NAMES).toEqual(["anthropic", "bedrock", "vertex", "foundry"]));
});

describe("hasModelAccess / createClient per provider", () => {
  it.each<[Record<string, string>, boolean]>([
    [{ ANTHROPIC_API_KEY: "sk-x" }, true],
    [{}, false],
    [BEDROCK, true],
    [VERTEX, true],
    [FOUNDRY, true],
  ])("hasModelAccess(%j) = %s", (env, expected) => expect(hasModelAccess(env)).toBe(expected));

  it.each([
    ["bedrock", BEDROCK, "https://bedrock-runtime.eu-west-1.amazonaws.com"],
    ["vertex", VERTEX, "https://us-east5-aiplatform.googleapis.com/v1"],
    ["foundry", FOUNDRY, "https://r.services.ai.azure.com/anthropic/"],
  ])("%s: its SDK's client, at its endpoint, with the SDK's retries off", (name, env, url) => {
    const client = createClient({ env });
    expect(providerOf(client)).toBe(name);
    expect(client.baseURL).toBe(url);
    expect(client.maxRetries).toBe(0);
  });

  it("a base URL override wins", () => {
    expect(createClient({ env: { ...BEDROCK, ANTHROPIC_BEDROCK_BASE_URL: "http://127.0.0.1:9" } }).baseURL).toBe("http://127.0.0.1:9");
    expect(createClient({ env: { ...VERTEX, ANTHROPIC_VERTEX_BASE_URL: "http://127.0.0.1:9/v1" } }).baseURL).toBe("http://127.0.0.1:9/v1");
    expect(createClient({ env: { ...FOUNDRY, ANTHROPIC_FOUNDRY_BASE_URL: "http://127.0.0.1:9/anthropic/" } }).baseURL).toBe("http://127.0.0.1:9/anthropic/");
  });
});

describe("model ids", () => {
  it.each([
    ["bedrock", "claude-sonnet-4-5", "global.anthropic.claude-sonnet-4-5-20250929-v1:0"],
    ["bedrock", "claude-sonnet-4-5-20250929", "global.anthropic.claude-sonnet-4-5-20250929-v1:0"],
    ["bedrock", "claude-opus-4-6", "global.anthropic.claude-opus-4-6-v1"],
    ["vertex", "claude-sonnet-4-5", "claude-sonnet-4-5@20250929"],
    ["vertex", "claude-haiku-4-5", "claude-haiku-4-5@20251001"],
    ["foundry", "claude-sonnet-4-5", "claude-sonnet-4-5"],
    // Unknown here, or already the provider's own id: sent as written.
    ["bedrock", "anthropic.claude-3-haiku-20240307-v1:0", "anthropic.claude-3-haiku-20240307-v1:0"],
    ["vertex", "claude-opus-5", "claude-opus-5"],
  ] as const)("%s: %s → %s", (provider, model, id) => expect(providerModelId(provider, model)).toBe(id));

  it("the operator's file overrides a cell and adds rows; the exact id before its family", () => {
    restoreIds = setOperatorModelIds(
      parseModelIds(
        [
          'claude-sonnet-4-5: { bedrock: "eu.anthropic.claude-sonnet-4-5-20250929-v1:0" }',
          'claude-sonnet-4-5-20250929: { bedrock: "arn:aws:bedrock:eu-west-1:123456789012:application-inference-profile/abc" }',
          "claude-opus-5: { vertex: claude-opus-5@20260101, foundry: opus-prod }",
        ].join("\n"),
        "ids.yml",
      ),
    );
    expect(providerModelId("bedrock", "claude-sonnet-4-5")).toBe("eu.anthropic.claude-sonnet-4-5-20250929-v1:0");
    expect(providerModelId("bedrock", "claude-sonnet-4-5-20250929")).toBe("arn:aws:bedrock:eu-west-1:123456789012:application-inference-profile/abc");
    expect(providerModelId("vertex", "claude-sonnet-4-5")).toBe("claude-sonnet-4-5@20250929"); // the bundled cell stays
    expect(providerModelId("vertex", "claude-opus-5")).toBe("claude-opus-5@20260101");
    expect(providerModelId("foundry", "claude-opus-5")).toBe("opus-prod");
  });

  it.each([
    ["an unknown provider", "m: { azure: x }", "CREWBOT_MODEL_IDS (ids.yml): m.azure: unknown provider (known: bedrock, vertex, foundry)"],
    ["an id that is not a string", "m: { bedrock: 3 }", "CREWBOT_MODEL_IDS (ids.yml): m.bedrock: must be the provider's model id (a string)"],
    ["an id with a space", 'm: { vertex: "a b" }', "CREWBOT_MODEL_IDS (ids.yml): m.vertex: is not a model id (letters, digits and . _ : @ / + -)"],
    ["a row that is not a mapping", "m: global.anthropic.x", "CREWBOT_MODEL_IDS (ids.yml): m: must be a mapping of providers (bedrock, vertex, foundry) to model ids"],
    ["not YAML", "m: {", "CREWBOT_MODEL_IDS (ids.yml): not valid YAML or JSON"],
  ])("refuses %s, naming the file and the key", (_name, text, message) => expect(() => parseModelIds(text, "ids.yml")).toThrow(message));

  it("loads the file CREWBOT_MODEL_IDS names; an unreadable one names it", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "crewbot-ids-"));
    const at = path.join(dir, "ids.json");
    await writeFile(at, '{"claude-haiku-4-5": {"bedrock": "us.anthropic.claude-haiku-4-5-20251001-v1:0"}}');
    expect(loadModelIds({ CREWBOT_MODEL_IDS: at })).toEqual({ "claude-haiku-4-5": { bedrock: "us.anthropic.claude-haiku-4-5-20251001-v1:0" } });
    expect(loadModelIds({})).toBeUndefined();
    expect(() => loadModelIds({ CREWBOT_MODEL_IDS: path.join(dir, "none.yml") })).toThrow(`CREWBOT_MODEL_IDS (${path.join(dir, "none.yml")}): cannot be read (ENOENT)`);
  });
});

describe("prices per provider", () => {
  it.each<[string, Record<string, string>, string, number]>([
    ["anthropic", {}, "claude-sonnet-4-5", 1],
    ["bedrock's global profile", BEDROCK, "claude-sonnet-4-5", 1],
    ["vertex in a region", VERTEX, "claude-sonnet-4-5", 1.1],
    ["vertex on the global endpoint", { ...VERTEX, CLOUD_ML_REGION: "global" }, "claude-sonnet-4-5", 1],
    ["vertex in a region, a model from before the premium", VERTEX, "claude-sonnet-4", 1],
    ["foundry (Anthropic's prices)", FOUNDRY, "claude-sonnet-4-5", 1],
  ])("%s: %s costs ×%d", (_name, env, model, factor) => expect(priceFactor(env)(model)).toBe(factor));

  it("a regional Bedrock profile from the operator's file has the premium; the operator's own prices never get it", () => {
    restoreIds = setOperatorModelIds({ "claude-sonnet-4-5": { bedrock: "eu.anthropic.claude-sonnet-4-5-20250929-v1:0" } });
    restorePricing = setProviderPricing(priceFactor(BEDROCK));
    expect(priceOf("claude-sonnet-4-5").price.input).toBeCloseTo(3.3);
    expect(priceOf("claude-sonnet-4-5").price.output).toBeCloseTo(16.5);
    expect(priceOf("claude-sonnet-4").price.input).toBe(3);
  });
});
