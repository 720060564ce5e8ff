/**
 * `crewbot run` on Foundry without a key: an Entra ID token from Azure's default chain, here a
 * service principal's secret (`AZURE_TENANT_ID`, `AZURE_CLIENT_ID`, `AZURE_CLIENT_SECRET`) exchanged
 * at a local Entra over HTTPS (`AZURE_AUTHORITY_HOST`). Its certificate is trusted through
 * `NODE_EXTRA_CA_CERTS`, which Node reads at start only: so the installed command runs as a child
 * process, on the compiled dist/ (`npm test` builds first), TLS verification on.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { COGNITIVE_SERVICES_SCOPE, startFakeEntra, type FakeEntra } from "../helpers/fake-entra.js";
import { startFakeProvider, type ProviderFake } from "../helpers/fake-providers.js";
import { makeRepo, tempDir } from "../helpers/git-repo.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const bin = path.join(root, "bin/crewbot.js");
const PLAN = "## Goal\nGreet the world.\n\n## Plan\n1. Add a greeting module\n\n## Risks\nNone.";

function crewbot(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Every file's text under `dir`: whatever the run keeps in its data directory. */
function filesUnder(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile())
    .map((file) => readFileSync(file).toString("latin1"))
    .join("\n");
}

let entra: FakeEntra | undefined;
let foundry: ProviderFake | undefined;
afterEach(async () => {
  await foundry?.close();
  await entra?.close();
  foundry = entra = undefined;
});

/** The operator's environment: Foundry's address, the service principal, the authority, no key. */
async function entraEnv(e: FakeEntra, f: ProviderFake, secret = e.clientSecret) {
  return {
    ...f.env,
    AZURE_TENANT_ID: e.tenantId,
    AZURE_CLIENT_ID: e.clientId,
    AZURE_CLIENT_SECRET: secret,
    AZURE_AUTHORITY_HOST: e.url,
    NODE_EXTRA_CA_CERTS: e.caFile,
    HOME: await tempDir("crewbot-home-"),
    CREWBOT_DATA_DIR: await tempDir("crewbot-data-"),
  };
}

describe("crewbot run on Foundry with an Entra ID token", () => {
  beforeAll(() => {
    if (!existsSync(path.join(root, "dist/cli/main.js"))) throw new Error("dist/ is missing: run `npm run build` (npm test does)");
  });

  it("exchanges the service principal's secret for a token and reaches the model with it, the secret nowhere", async () => {
    entra = await startFakeEntra();
    const script = [
      // The scout looks for the secret where a sandboxed command could: the environment, the process's own.
      { content: [{ type: "tool_use" as const, name: "bash", input: { command: "env; cat /proc/self/environ | tr '\\0' '\\n'; ls -a ~" } }] },
      { text: "Scout report: README says hello." },
      { text: PLAN },
    ];
    foundry = await startFakeProvider("foundry", script, { entraTokens: entra.tokens });
    const repo = await makeRepo({ "README.md": "hello\n" });
    const env = await entraEnv(entra, foundry);
    expect(env).not.toHaveProperty("ANTHROPIC_FOUNDRY_API_KEY");
    const r = await crewbot(["run", "--repo", repo, "--json", "--model", "claude-haiku-4-5", "add a greeting"], env);
    expect(r.stderr).not.toContain("crewbot: ");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, chain: "plan", plan: { steps: [{ n: 1, text: "Add a greeting module" }] } });

    // MSAL read the tenant's OpenID configuration, then asked once for a Cognitive Services token: no instance discovery, no other host.
    expect(entra.requests).toEqual([`GET /${entra.tenantId}/v2.0/.well-known/openid-configuration`, `POST /${entra.tenantId}/oauth2/v2.0/token`]);
    expect(entra.tokenForms[0]!.get("scope")).toBe(COGNITIVE_SERVICES_SCOPE);
    expect(entra.tokenForms[0]!.get("client_secret")).toBe(entra.clientSecret);
    const [token] = [...entra.tokens];
    expect(foundry.requests).toHaveLength(3);
    // The sandboxed command ran and its output went back to the model, without the secret.
    expect(JSON.stringify(foundry.requests[1]!.wire)).toContain("tool_result");
    expect(JSON.stringify(foundry.requests[1]!.wire)).toContain("HOME=");
    for (const request of foundry.requests) {
      expect(request.headers.authorization).toBe(`Bearer ${token}`);
      expect(request.headers["x-api-key"]).toBeUndefined();
      expect(JSON.stringify(request.headers) + JSON.stringify(request.wire)).not.toContain(entra.clientSecret);
    }
    expect(r.stdout + r.stderr).not.toContain(entra.clientSecret);
    expect(filesUnder(env.CREWBOT_DATA_DIR)).not.toContain(entra.clientSecret);
  });

  it("a wrong secret stops the run naming the credential problem, no stack, nothing sent to the model", async () => {
    entra = await startFakeEntra({ expectRejections: true });
    foundry = await startFakeProvider("foundry", [], { entraTokens: entra.tokens });
    const repo = await makeRepo({ "README.md": "hello\n" });
    const wrong = `${entra.clientSecret}-wrong`;
    const r = await crewbot(["run", "--repo", repo, "add a greeting"], await entraEnv(entra, foundry, wrong));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("crewbot: step 1 (scout): provider error: Failed to get token from azureADTokenProvider: EnvironmentCredential authentication failed");
    expect(r.stderr).toContain("invalid_client: Error(s): 7000215");
    expect(r.stderr).toContain("AADSTS7000215: Invalid client secret provided");
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout + r.stderr).not.toContain(wrong);
    expect(foundry.requests).toHaveLength(0);
    expect(entra.rejections).toEqual(["token: invalid client secret"]);
  });

  it("a token the resource does not take is refused as Azure refuses it, and the run stops naming it", async () => {
    entra = await startFakeEntra();
    foundry = await startFakeProvider("foundry", [], { entraTokens: new Set(["a-token-for-another-resource"]), expectRejections: true });
    const repo = await makeRepo({ "README.md": "hello\n" });
    const r = await crewbot(["run", "--repo", repo, "add a greeting"], await entraEnv(entra, foundry));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Access token is missing, invalid, audience is incorrect (https://cognitiveservices.azure.com), or have expired.");
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(foundry.rejections[0]).toMatch(/^POST \/anthropic\/v1\/messages: 401 Unauthorized\. Access token is missing/);
    expect(entra.tokens.size).toBe(1);
  });

  it("verifies the authority's certificate: untrusted, the token is never asked for", async () => {
    entra = await startFakeEntra();
    foundry = await startFakeProvider("foundry", [], { entraTokens: entra.tokens });
    const repo = await makeRepo({ "README.md": "hello\n" });
    const { NODE_EXTRA_CA_CERTS: _trusted, ...env } = await entraEnv(entra, foundry);
    const r = await crewbot(["run", "--repo", repo, "add a greeting"], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Failed to get token from azureADTokenProvider");
    expect(entra.requests).toEqual([]);
    expect(foundry.requests).toHaveLength(0);
  });
});
