import { describe, expect, it } from "vitest";
import { REDACTED, redact, secretsFromEnv } from "../../src/secrets/redact.js";

describe("redact", () => {
  const ghs = `ghs_${"a1B2".repeat(9)}`;
  it.each([
    [`token ${ghs} here`, `token ${REDACTED} here`],
    [`ghp_${"x".repeat(36)}`, REDACTED],
    [`github_pat_11ABCDEFG0_${"y".repeat(59)}`, REDACTED],
    ["key sk-ant-api03-abcdefghijklmnop_QRS-tuv end", `key ${REDACTED} end`],
    ["-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----", REDACTED],
    ["nothing secret in ghs_short", "nothing secret in ghs_short"],
  ])("%j", (input, expected) => {
    expect(redact(input)).toBe(expected);
  });

  it("redacts literal secrets of no known shape, but not short words", () => {
    expect(redact("the webhook secret is hunter2hunter2!", ["hunter2hunter2", "is"])).toBe(
      `the webhook secret is ${REDACTED}!`,
    );
  });

  it("takes the operator's secrets from the environment", () => {
    expect(secretsFromEnv({ WEBHOOK_SECRET: "w-secret-123", PATH: "/usr/bin" })).toEqual(["w-secret-123"]);
  });

  it("counts the npm registry's token among them, so nothing posted or logged carries it", () => {
    const secrets = secretsFromEnv({ CREWBOT_NPM_TOKEN: "npm_registryToken0123", CREWBOT_NPM_REGISTRY: "https://npm.internal.example/" });
    expect(secrets).toEqual(["npm_registryToken0123"]);
    expect(redact("Authorization: Bearer npm_registryToken0123", secrets)).toBe(`Authorization: Bearer ${REDACTED}`);
  });
});
