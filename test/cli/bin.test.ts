import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeServer } from "../helpers/fake-anthropic.js";
import { makeRepo, tempDir } from "../helpers/git-repo.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const bin = path.join(root, "bin/crewbot.js");

/** The installed command as a user runs it: plain node on the compiled dist/ (`npm test` builds first). */
function crewbot(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

let fake: FakeServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe("bin/crewbot.js", () => {
  beforeAll(() => {
    if (!existsSync(path.join(root, "dist/cli/main.js"))) throw new Error("dist/ is missing: run `npm run build` (npm test does)");
  });

  it("prints its usage", async () => {
    const r = await crewbot(["--help"], {});
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("crewbot run [--repo <path>]");
  });

  it("says so and exits 1 without ANTHROPIC_API_KEY", async () => {
    const r = await crewbot(["run", "plan something"], {});
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("ANTHROPIC_API_KEY is not set");
  });

  it("exits 1 naming a bad flag", async () => {
    const r = await crewbot(["run", "--frobnicate", "x"], { ANTHROPIC_API_KEY: "k" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--frobnicate");
  });

  it("runs the plan chain and prints one JSON result", async () => {
    fake = await startFakeAnthropic([{ text: "Scout report." }, { text: "## Plan\n1. Do the thing\n2. Test it" }]);
    const repo = await makeRepo({ "README.md": "hi\n" });
    const r = await crewbot(["run", "--repo", repo, "--json", "do the thing"], {
      ANTHROPIC_API_KEY: "sk-test",
      ANTHROPIC_BASE_URL: fake.url,
      CREWBOT_DATA_DIR: await tempDir("crewbot-data-"),
    });
    expect(r.stderr).toContain("chain plan: scout → planner");
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ ok: true, chain: "plan", mode: "plan" });
    expect(result.plan.steps).toEqual([
      { n: 1, text: "Do the thing" },
      { n: 2, text: "Test it" },
    ]);
    expect(result.usage.output).toBeGreaterThan(0);
  });
});
