import { describe, expect, it } from "vitest";
import { DEFAULT_BUDGETS } from "../../src/agent/budget.js";
import os from "node:os";
import path from "node:path";
import { parseCliArgs, USAGE } from "../../src/cli/args.js";
import { cliDataDir } from "../../src/cli/run.js";

describe("parseCliArgs", () => {
  it.each([[[]], [["--help"]], [["help"]], [["run", "--help"]], [["run", "-h"]]])("%j → help", (argv) => {
    expect(parseCliArgs(argv)).toEqual({ command: "help" });
  });

  it("reads a full run", () => {
    expect(
      parseCliArgs(["run", "--repo", "/r", "--chain", "implement", "--json", "--max-cost", "0.5", "--network", "--allow-unsandboxed", "fix", "the bug"]),
    ).toEqual({
      command: "run",
      repo: "/r",
      chain: "implement",
      json: true,
      model: undefined,
      budgets: { ...DEFAULT_BUDGETS, maxCostUsd: 0.5 },
      network: true,
      allowUnsandboxed: true,
      request: "fix the bug",
    });
  });

  it("defaults to the plan chain in the current directory, sandboxed", () => {
    expect(parseCliArgs(["run", "do it"])).toMatchObject({ command: "run", repo: ".", chain: "plan", json: false, allowUnsandboxed: false });
  });

  it.each([
    [["deploy"], 'unknown command "deploy"'],
    [["run"], "the request is missing"],
    [["run", "--bogus", "x"], "--bogus"],
    [["run", "--max-turns", "zero", "x"], "--max-turns must be a positive number"],
    [["run", "--max-cost=-1", "x"], "--max-cost must be a positive number"],
    [["run", "--max-cost", "-1", "x"], "--max-cost"],
    [["run", "--chain", "../etc/passwd", "x"], "--chain takes a chain name"],
  ])("%j → error naming the problem", (argv, message) => {
    const parsed = parseCliArgs(argv);
    expect(parsed.command).toBe("error");
    expect((parsed as { message: string }).message).toContain(message);
  });
});

describe("the usage text", () => {
  it("names the data dir the CLI really uses", () => {
    expect(cliDataDir({ XDG_CACHE_HOME: "/cache" })).toBe("/cache/crewbot");
    expect(cliDataDir({})).toBe(path.join(os.homedir(), ".cache", "crewbot"));
    expect(USAGE).toContain("CREWBOT_DATA_DIR (default $XDG_CACHE_HOME/crewbot, else ~/.cache/crewbot)");
  });
});
