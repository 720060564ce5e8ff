/**
 * The providers' stand-ins refuse what the real ones refuse: a test that passes against them cannot
 * rest on an unsigned or tampered Bedrock request, a Vertex request without Google's token or with
 * Anthropic's request shape, or a Foundry request without the resource's key.
 */
import { AnthropicBedrock } from "@anthropic-ai/bedrock-sdk";
import { afterEach, describe, expect, it } from "vitest";
import { crc32 } from "node:zlib";
import { chunkFrame } from "../helpers/aws-wire.js";
import { startFakeProvider, type ProviderFake } from "../helpers/fake-providers.js";

let fake: ProviderFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const body = (extra: Record<string, unknown> = {}) => JSON.stringify({ max_tokens: 10, messages: [{ role: "user", content: "hi" }], ...extra });
const params = { model: "global.anthropic.claude-haiku-4-5-20251001-v1:0", max_tokens: 10, messages: [{ role: "user" as const, content: "hi" }] };

/** A Bedrock client of the SDK itself, signing with `secret`, its last fetch changed by `tamper`; `firstParty`: the SDK's own API version. */
function bedrock(f: ProviderFake, secret: string, tamper?: (body: string) => string, firstParty = false) {
  return new AnthropicBedrock({
    awsRegion: f.env.AWS_REGION!,
    awsAccessKey: f.env.AWS_ACCESS_KEY_ID!,
    awsSecretKey: secret,
    apiKey: null,
    baseURL: f.url,
    maxRetries: 0,
    ...(firstParty ? {} : { defaultHeaders: { "anthropic-version": "bedrock-2023-05-31" } }),
    fetch: (url, init) => fetch(url, tamper && typeof init?.body === "string" ? { ...init, body: tamper(init.body) } : init),
  });
}

describe("the Bedrock stand-in", () => {
  it("answers a correctly signed request", async () => {
    fake = await startFakeProvider("bedrock", [{ text: "fine" }]);
    const message = await bedrock(fake, fake.env.AWS_SECRET_ACCESS_KEY!).messages.stream(params).finalMessage();
    expect(message.content).toEqual([{ type: "text", text: "fine", citations: null }]);
  });

  it.each<[string, (f: ProviderFake) => Promise<unknown>, RegExp]>([
    ["a wrong secret", (f) => bedrock(f, "not-the-secret").messages.create(params), /403 The request signature we calculated does not match/],
    ["a body changed after signing", (f) => bedrock(f, f.env.AWS_SECRET_ACCESS_KEY!, (b) => b.replace('"hi"', '"HI"')).messages.create(params), /403 The provided 'x-amz-content-sha256' header does not match/],
    ["no signature", (f) => fetch(`${f.url}/model/${params.model}/invoke`, { method: "POST", body: body({ anthropic_version: "bedrock-2023-05-31" }) }).then((r) => r.text()), /Missing Authentication Token/],
    ["the first-party API version (the SDK's default)", (f) => bedrock(f, f.env.AWS_SECRET_ACCESS_KEY!, undefined, true).messages.create(params), /2026-10-21 is not a supported version/],
    ["Anthropic's model name", (f) => bedrock(f, f.env.AWS_SECRET_ACCESS_KEY!).messages.create({ ...params, model: "claude-haiku-4-5" }), /400 The provided model identifier is invalid/],
  ])("refuses %s", async (_name, call, error) => {
    fake = await startFakeProvider("bedrock", [], { expectRejections: true });
    const result = await call(fake).then(String, (err: Error) => err.message);
    expect(result).toMatch(error);
    expect(fake.rejections).toHaveLength(1);
  });

  it("frames a chunk as AWS does: prelude and message CRCs, string headers, the event base64 in `bytes`", () => {
    const frame = chunkFrame({ type: "ping" }, "p");
    const total = frame.readUInt32BE(0);
    const headersLength = frame.readUInt32BE(4);
    expect(total).toBe(frame.length);
    expect(frame.readUInt32BE(8)).toBe(crc32(frame.subarray(0, 8)));
    expect(frame.readUInt32BE(total - 4)).toBe(crc32(frame.subarray(0, total - 4)));
    const headers = frame.subarray(12, 12 + headersLength).toString("latin1");
    expect(headers).toContain(":event-type\x07\x00\x05chunk");
    const payload = JSON.parse(frame.subarray(12 + headersLength, total - 4).toString("utf8")) as { bytes: string };
    expect(JSON.parse(Buffer.from(payload.bytes, "base64").toString("utf8"))).toEqual({ type: "ping" });
  });
});

describe("the Vertex AI stand-in", () => {
  const path = "/v1/projects/crewbot-test/locations/us-east5/publishers/anthropic/models/claude-haiku-4-5@20251001:rawPredict";
  it.each<[string, Record<string, string>, string, RegExp]>([
    ["no token", {}, body({ anthropic_version: "vertex-2023-10-16" }), /^401 .*invalid authentication credentials/],
    ["a token it did not issue", { authorization: "Bearer ya29.forged" }, body({ anthropic_version: "vertex-2023-10-16" }), /^401 /],
  ])("refuses %s", async (_name, headers, payload, error) => {
    fake = await startFakeProvider("vertex", [], { expectRejections: true });
    const response = await fetch(`${fake.url}${path}`, { method: "POST", headers, body: payload });
    const answer = (await response.json()) as { error: { code: number; message: string; status: string } };
    expect(`${response.status} ${answer.error.message}`).toMatch(error);
    expect(answer.error.status).toBe("UNAUTHENTICATED");
  });
});

describe("the Foundry stand-in", () => {
  it("refuses a request without the resource's key", async () => {
    fake = await startFakeProvider("foundry", [], { expectRejections: true });
    const response = await fetch(`${fake.url}/anthropic/v1/messages`, { method: "POST", headers: { "anthropic-version": "2023-06-01" }, body: body({ model: "claude-haiku-4-5" }) });
    expect(response.status).toBe(401);
    expect(fake.rejections).toHaveLength(1);
  });
});
