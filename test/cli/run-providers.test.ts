/** `crewbot run` on a cloud provider: no Anthropic key, the provider's variables, its stand-in answering. */
import { afterEach, describe, expect, it } from "vitest";
import { parseCliArgs, type RunArgs } from "../../src/cli/args.js";
import { runCommand } from "../../src/cli/run.js";
import { startFakeProvider, type ProviderFake, type ProviderKind } from "../helpers/fake-providers.js";
import { makeRepo, tempDir } from "../helpers/git-repo.js";

const PLAN = "## Goal\nGreet the world.\n\n## Plan\n1. Add a greeting module\n\n## Risks\nNone.";

let fake: ProviderFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function run(argv: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCommand(parseCliArgs(["run", ...argv]) as RunArgs, {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    env: { CREWBOT_DATA_DIR: await tempDir("crewbot-data-"), ...env },
  });
  return { code, stdout: out.join(""), stderr: err.join("\n") };
}

describe("crewbot run on a cloud provider", () => {
  it.each<ProviderKind>(["bedrock", "vertex", "foundry"])("%s: plans with the provider's client, no ANTHROPIC_API_KEY needed", async (kind) => {
    fake = await startFakeProvider(kind, [{ text: "Scout report: README says hello." }, { text: PLAN }]);
    const repo = await makeRepo({ "README.md": "hello\n" });
    // --model: one model the bundled table maps on every provider.
    const r = await run(["--repo", repo, "--model", "claude-haiku-4-5", "add a greeting"], fake.env);
    expect(r.stderr).not.toContain("crewbot: ");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("## Plan\n- [ ] Add a greeting module");
    expect(fake.requests).toHaveLength(2);
  });

  it.each([
    [{ CREWBOT_MODEL_PROVIDER: "openai" }, 'crewbot: CREWBOT_MODEL_PROVIDER must be one of anthropic, bedrock, vertex, foundry; got "openai"'],
    [{ CREWBOT_MODEL_PROVIDER: "bedrock" }, "crewbot: CREWBOT_MODEL_PROVIDER=bedrock needs AWS_REGION, which is not set"],
  ])("%j stops before anything runs, naming the variable", async (env, message) => {
    const repo = await makeRepo({ "README.md": "hello\n" });
    const r = await run(["--repo", repo, "add a greeting"], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(message);
  });
});
