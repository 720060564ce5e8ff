import { afterEach } from "vitest";
import { parseCliArgs, type RunArgs } from "../../src/cli/args.js";
import { runCommand } from "../../src/cli/run.js";
import { startFakeAnthropic, type FakeReply, type FakeServer } from "../helpers/fake-anthropic.js";
import { tempDir } from "../helpers/git-repo.js";

/**
 * `crewbot run --repo <repo> …argv` in this process against the fake model with `script` (and `env`): its exit
 * code, output and the model requests. The fake server of each run is closed after each test.
 */
export function inProcessRun() {
  let fake: FakeServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  return async (repo: string, argv: string[], script: FakeReply[], env: NodeJS.ProcessEnv = {}) => {
    fake = await startFakeAnthropic(script);
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCommand(parseCliArgs(["run", "--repo", repo, ...argv]) as RunArgs, {
      stdout: (t) => out.push(t),
      stderr: (t) => err.push(t),
      env: { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: fake.url, CREWBOT_DATA_DIR: await tempDir("crewbot-data-"), ...env },
    });
    return { code, stdout: out.join(""), stderr: err.join("\n"), requests: fake.requests };
  };
}
