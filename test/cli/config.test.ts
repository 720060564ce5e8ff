import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { parseCliArgs } from "../../src/cli/args.js";
import { configCommand } from "../../src/cli/config.js";
import { JSON_SCHEMA_PATH } from "../../src/config/json-schema.js";
import { mergeConfig } from "../../src/config/load.js";
import { DEFAULT_CONFIG } from "../../src/config/schema.js";
import { tempDir } from "../helpers/git-repo.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const bin = path.join(root, "bin/crewbot.js");

const TOP_KEYS = "commands, triggers, learnings, review, implement, budgets, mcp, models, sandbox, ask, transcripts";

/** The installed command as a user runs it: plain node on the compiled dist/. */
function crewbot(args: string[], cwd = root): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** A file with `text` in a fresh temp dir. */
async function configFile(text: string, name = "crewbot.yml"): Promise<string> {
  const file = path.join(await tempDir("crewbot-config-"), name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

/** `configCommand` with its output captured: stdout as written, stderr one entry per line it writes. */
async function runConfig(action: "validate" | "print", file: string) {
  let stdout = "";
  const stderr: string[] = [];
  const code = await configCommand({ command: "config", action, file }, { stdout: (t) => void (stdout += t), stderr: (t) => void stderr.push(t), env: {} });
  return { code, stdout, stderr };
}

describe("parseCliArgs config", () => {
  it.each<[string, string[], ReturnType<typeof parseCliArgs>]>([
    ["validate with a file", ["config", "validate", "my.yml"], { command: "config", action: "validate", file: "my.yml" }],
    ["validate, default file", ["config", "validate"], { command: "config", action: "validate", file: ".github/crewbot.yml" }],
    ["print with a file", ["config", "print", "x/y.yaml"], { command: "config", action: "print", file: "x/y.yaml" }],
    ["--help", ["config", "--help"], { command: "help" }],
    ["print, default file", ["config", "print"], { command: "config", action: "print", file: ".github/crewbot.yml" }],
    ["schema", ["config", "schema"], { command: "config", action: "schema" }],
    ["schema with a file", ["config", "schema", "my.yml"], { command: "error", message: "config schema takes no file, got 1" }],
    ["no action", ["config"], { command: "error", message: "config needs validate, print or schema" }],
    ["an unknown action", ["config", "check"], { command: "error", message: 'unknown config action "check"' }],
    ["actions are case-sensitive", ["config", "Validate"], { command: "error", message: 'unknown config action "Validate"' }],
    ["the file before the action", ["config", "my.yml", "validate"], { command: "error", message: 'unknown config action "my.yml"' }],
    ["two files", ["config", "validate", "a.yml", "b.yml"], { command: "error", message: "config validate takes one file, got 2" }],
    ["three files to print", ["config", "print", "a", "b", "c"], { command: "error", message: "config print takes one file, got 3" }],
  ])("%s", (_name, argv, parsed) => {
    expect(parseCliArgs(argv)).toEqual(parsed);
  });

  it("`config` is not taken for a run request", () => {
    expect(parseCliArgs(["run", "config", "validate"])).toMatchObject({ command: "run", request: "config validate" });
  });
});

describe("configCommand", () => {
  it("says a good file is valid", async () => {
    const file = await configFile("implement:\n  check: [npm test]\nbudgets: { maxCostUsd: 1 }\n");
    expect(await runConfig("validate", file)).toEqual({ code: 0, stdout: `${file}: valid\n`, stderr: [] });
  });

  it.each(["false\n", "0\n", "~\n"])("takes a file that is just %j as the defaults, as GitHub does", async (text) => {
    const file = await configFile(text);
    expect(await runConfig("validate", file)).toEqual({ code: 0, stdout: `${file}: valid\n`, stderr: [] });
  });

  it("takes an empty file as valid", async () => {
    const file = await configFile("");
    expect(await runConfig("validate", file)).toEqual({ code: 0, stdout: `${file}: valid\n`, stderr: [] });
  });

  it("lists every problem on its own line, naming the key, without markdown backticks", async () => {
    const file = await configFile("implement:\n  setup:\n    - npm ci\n    - 42\nreview:\n  auto: maybe\nfoo: 1\n");
    const r = await runConfig("validate", file);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toEqual([
      `crewbot: ${file} is invalid:`,
      '  - review.auto: expected true or false, got "maybe"',
      "  - implement.setup[1]: expected a command (a string), got the number 42",
      `  - foo: unknown key; expected one of ${TOP_KEYS}`,
    ]);
  });

  it("refuses YAML that does not parse", async () => {
    const file = await configFile("implement:\n  check: [a, b\n");
    const r = await runConfig("validate", file);
    expect(r.code).toBe(1);
    expect(r.stderr[0]).toBe(`crewbot: ${file} is invalid:`);
    expect(r.stderr).toHaveLength(2);
    expect(r.stderr[1]).toMatch(/^ {2}- not valid YAML: \S/);
  });

  it("refuses duplicate keys as YAML GitHub would not parse either", async () => {
    const file = await configFile("review:\n  auto: true\nreview:\n  auto: false\n");
    const r = await runConfig("validate", file);
    expect(r.code).toBe(1);
    expect(r.stderr[1]).toMatch(/^ {2}- not valid YAML: /);
  });

  it("refuses a file that is a list", async () => {
    const file = await configFile("- plan\n");
    expect(await runConfig("validate", file)).toEqual({
      code: 1,
      stdout: "",
      stderr: [`crewbot: ${file} is invalid:`, "  - (top level): expected a map of settings (see DESIGN.md §5), got a list"],
    });
  });

  it("notes `_extends` on stderr and checks the rest", async () => {
    const file = await configFile("_extends: .github\nimplement: { draft: false }\n");
    expect(await runConfig("validate", file)).toEqual({
      code: 0,
      stdout: `${file}: valid\n`,
      stderr: ["crewbot: note: _extends: .github is followed on GitHub; only this file was checked here."],
    });
  });

  it("still finds problems next to `_extends`", async () => {
    const file = await configFile("_extends: acme/settings\nimplement: { draft: nope }\n");
    const r = await runConfig("validate", file);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual([`crewbot: ${file} is invalid:`, '  - implement.draft: expected true or false, got "nope"']);
  });

  it("refuses an `_extends` that is not a repository name", async () => {
    const file = await configFile("_extends: [a, b]\n");
    const r = await runConfig("validate", file);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual([`crewbot: ${file} is invalid:`, "  - _extends: expected a repository name such as .github or acme/settings"]);
  });

  it("says a missing file does not exist", async () => {
    const file = path.join(await tempDir("crewbot-config-"), "nope.yml");
    expect(await runConfig("validate", file)).toEqual({ code: 1, stdout: "", stderr: [`crewbot: ${file} does not exist`] });
  });

  it("prints the effective config as YAML, defaults filled in", async () => {
    const text = "review:\n  ignoreAuthors: [bob]\n  paths: { exclude: ['docs/**'] }\nmodels:\n  worker: claude-sonnet-4-5\nsandbox: { network: true }\n";
    const file = await configFile(text);
    const r = await runConfig("print", file);
    expect(r.code).toBe(0);
    expect(r.stderr).toEqual([]);
    expect(YAML.parse(r.stdout)).toEqual(mergeConfig(DEFAULT_CONFIG, YAML.parse(text)));
    expect(YAML.parse(r.stdout)).toMatchObject({ review: { paths: { include: ["**"], exclude: ["docs/**"] } }, budgets: { maxTurns: 200 } });
  });

  it("schema: prints the config file's JSON Schema, the one committed", async () => {
    let stdout = "";
    const stderr: string[] = [];
    const code = await configCommand({ command: "config", action: "schema" }, { stdout: (t) => void (stdout += t), stderr: (t) => void stderr.push(t), env: {} });
    expect({ code, stderr }).toEqual({ code: 0, stderr: [] });
    expect(stdout).toBe(readFileSync(path.join(root, JSON_SCHEMA_PATH), "utf8"));
  });

  it("prints an invalid file's problems instead of a config", async () => {
    const file = await configFile("budgets: { maxTurns: 0 }\n");
    expect(await runConfig("print", file)).toEqual({
      code: 1,
      stdout: "",
      stderr: [`crewbot: ${file} is invalid:`, "  - budgets.maxTurns: expected a whole number above 0, got the number 0"],
    });
  });
});

describe("crewbot config (bin)", () => {
  beforeAll(() => {
    if (!existsSync(path.join(root, "dist/cli/config.js"))) throw new Error("dist/ is missing or old: run `npm run build` (npm test does)");
  });

  it("validate: exit 0 and valid", async () => {
    const file = await configFile("commands: { review: false }\nimplement:\n  setup: [npm ci]\n  check: [npm test]\n");
    const r = await crewbot(["config", "validate", file]);
    expect(r).toEqual({ code: 0, stdout: `${file}: valid\n`, stderr: "" });
  });

  it("validate: the default file is .github/crewbot.yml in the current directory", async () => {
    const dir = await tempDir("crewbot-config-");
    await mkdir(path.join(dir, ".github"));
    await writeFile(path.join(dir, ".github/crewbot.yml"), "review: { drafts: true }\n");
    expect(await crewbot(["config", "validate"], dir)).toEqual({ code: 0, stdout: ".github/crewbot.yml: valid\n", stderr: "" });
  });

  it("validate: exit 1 with each problem on its own stderr line", async () => {
    const file = await configFile("implement:\n  check: [npm test, 7]\n  chain: 'no such chain'\nbudgets:\n  maxCostUsd: -1\nsandbox:\n  network: yes please\n");
    const r = await crewbot(["config", "validate", file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n")).toEqual([
      `crewbot: ${file} is invalid:`,
      '  - implement.chain: expected a chain name such as implement or implement-and-review, got "no such chain"',
      "  - implement.check[1]: expected a command (a string), got the number 7",
      "  - budgets.maxCostUsd: expected a number of US dollars above 0, got the number -1",
      '  - sandbox.network: expected true or false, got "yes please"',
      "",
    ]);
  });

  it("validate: a missing file exits 1, does not exist", async () => {
    const dir = await tempDir("crewbot-config-");
    const r = await crewbot(["config", "validate", "missing.yml"], dir);
    expect(r).toEqual({ code: 1, stdout: "", stderr: "crewbot: missing.yml does not exist\n" });
  });

  it("validate: `_extends` is a note, not an error", async () => {
    const file = await configFile("_extends: .github\n");
    const r = await crewbot(["config", "validate", file]);
    expect(r).toEqual({ code: 0, stdout: `${file}: valid\n`, stderr: "crewbot: note: _extends: .github is followed on GitHub; only this file was checked here.\n" });
  });

  it("print: YAML of the file over the defaults", async () => {
    const text = "_extends: .github\nimplement:\n  chain: implement-and-review\n  check: [npm test]\nmodels: { planner: claude-opus-4-1 }\nbudgets: { maxMinutes: 10 }\n";
    const file = await configFile(text);
    const r = await crewbot(["config", "print", file]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("_extends: .github is followed on GitHub");
    const { _extends: _ignored, ...rest } = YAML.parse(text) as Record<string, unknown>;
    expect(YAML.parse(r.stdout)).toEqual(mergeConfig(DEFAULT_CONFIG, rest));
    expect(YAML.parse(r.stdout)).not.toHaveProperty("_extends");
  });

  it("print: an empty file prints the defaults", async () => {
    const file = await configFile("# nothing yet\n");
    const r = await crewbot(["config", "print", file]);
    expect(r.code).toBe(0);
    expect(YAML.parse(r.stdout)).toEqual(DEFAULT_CONFIG);
  });

  it.each<[string, string[], string]>([
    ["no action", ["config"], "crewbot: config needs validate, print or schema"],
    ["an unknown action", ["config", "lint", "x.yml"], 'crewbot: unknown config action "lint"'],
    ["too many files", ["config", "print", "a.yml", "b.yml"], "crewbot: config print takes one file, got 2"],
  ])("%s exits 1 with the usage", async (_name, args, message) => {
    const r = await crewbot(args);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n")[0]).toBe(message);
    expect(r.stderr).toContain("crewbot config validate [<file>]");
    expect(r.stderr).toContain("crewbot config print [<file>]");
    expect(r.stderr).toContain("crewbot config schema");
  });

  it("schema: prints the committed JSON Schema, exit 0", async () => {
    const r = await crewbot(["config", "schema"]);
    expect(r).toEqual({ code: 0, stdout: readFileSync(path.join(root, JSON_SCHEMA_PATH), "utf8"), stderr: "" });
    expect(JSON.parse(r.stdout)).toMatchObject({ $schema: "http://json-schema.org/draft-07/schema#", additionalProperties: false });
  });

  it("schema: a file after it exits 1 with the usage", async () => {
    const r = await crewbot(["config", "schema", ".github/crewbot.yml"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n")[0]).toBe("crewbot: config schema takes no file, got 1");
  });
});
