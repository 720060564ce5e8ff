import nock from "nock";
import { describe, expect, it } from "vitest";
import { loadRepoConfig, mergeConfig } from "../../src/config/load.js";
import { DEFAULT_CONFIG, type CrewbotConfig } from "../../src/config/schema.js";
import { ConfigError } from "../../src/config/validate.js";
import { TestOctokit } from "../helpers/app-stand-ins.js";
import { API, TOKEN, useNock } from "../helpers/github.js";
import { inLinearTimeAsync } from "../helpers/linear-time.js";

describe("mergeConfig", () => {
  it.each<[string, unknown, unknown, unknown]>([
    ["maps merge key by key", { a: 1, b: 2 }, { b: 3, c: 4 }, { a: 1, b: 3, c: 4 }],
    ["maps merge deeply", { review: { auto: true, paths: { include: ["**"], exclude: ["a"] } } }, { review: { paths: { exclude: ["b"] } } }, { review: { auto: true, paths: { include: ["**"], exclude: ["b"] } } }],
    ["lists replace, never concatenate", { implement: { check: ["a", "b"] } }, { implement: { check: ["c"] } }, { implement: { check: ["c"] } }],
    ["an empty list replaces too", { review: { ignoreAuthors: ["bob"] } }, { review: { ignoreAuthors: [] } }, { review: { ignoreAuthors: [] } }],
    ["scalars replace", { budgets: { maxTurns: 10, maxCostUsd: 1 } }, { budgets: { maxTurns: 20 } }, { budgets: { maxTurns: 20, maxCostUsd: 1 } }],
    ["false replaces true", { commands: { plan: true } }, { commands: { plan: false } }, { commands: { plan: false } }],
    ["a key only in base stays", { models: { worker: "a" } }, {}, { models: { worker: "a" } }],
    ["a key only in over is added", {}, { models: { worker: "a" } }, { models: { worker: "a" } }],
    ["agent models merge by name", { models: { worker: "a", planner: "b" } }, { models: { worker: "c" } }, { models: { worker: "c", planner: "b" } }],
    ["undefined keeps the base value", { a: { b: 1 } }, { a: undefined }, { a: { b: 1 } }],
    ["undefined over keeps the whole base", { a: 1 }, undefined, { a: 1 }],
    ["null replaces", { implement: { check: ["a"] } }, { implement: null }, { implement: null }],
    ["a map replaces a list", { a: [1] }, { a: { b: 1 } }, { a: { b: 1 } }],
    ["a list replaces a map", { a: { b: 1 } }, { a: [1] }, { a: [1] }],
    ["a scalar replaces a map", { a: { b: 1 } }, { a: 5 }, { a: 5 }],
    ["a map over a scalar", 5, { a: 1 }, { a: 1 }],
    ["over a missing base", undefined, { a: 1 }, { a: 1 }],
  ])("%s", (_name, base, over, merged) => {
    expect(mergeConfig(base, over)).toEqual(merged);
  });

  it("changes neither input", () => {
    const base = { review: { paths: { include: ["**"] } }, implement: { check: ["a"] } };
    const over = { review: { paths: { include: ["src/**"] } }, implement: { check: ["b"] } };
    const merged = mergeConfig(base, over) as typeof base;
    expect(base).toEqual({ review: { paths: { include: ["**"] } }, implement: { check: ["a"] } });
    expect(over).toEqual({ review: { paths: { include: ["src/**"] } }, implement: { check: ["b"] } });
    expect(merged.review).not.toBe(base.review);
    expect(merged.review.paths).not.toBe(base.review.paths);
  });
});

const OWNER = "acme";
const REPO = "app";
const CONFIG_URL_PATH = "/contents/.github%2Fcrewbot.yml";
const REPO_CONFIG = `/repos/${OWNER}/${REPO}${CONFIG_URL_PATH}`;
const ORG_CONFIG = `/repos/${OWNER}/.github${CONFIG_URL_PATH}`;
const RAW = { "content-type": "text/plain; charset=utf-8" }; // what GitHub sends for the raw media type
const ORG_LABEL = "acme/.github: .github/crewbot.yml";

const octokit = () => new TestOctokit({ auth: TOKEN });
const load = () => loadRepoConfig(octokit(), { owner: OWNER, repo: REPO });

/** The error `load()` rejects with; fails when it resolves. */
async function loadError(): Promise<unknown> {
  try {
    const loaded = await load();
    throw new Error(`expected an error, got ${JSON.stringify(loaded)}`);
  } catch (error) {
    return error;
  }
}

const withDefaults = (over: Partial<{ [K in keyof CrewbotConfig]: Partial<CrewbotConfig[K]> }>): CrewbotConfig =>
  mergeConfig(DEFAULT_CONFIG, over) as CrewbotConfig;

describe("loadRepoConfig", () => {
  useNock();

  it("uses the defaults when neither the repository nor the organisation has a file", async () => {
    nock(API).get(REPO_CONFIG).reply(404, { message: "Not Found" }).get(ORG_CONFIG).reply(404, { message: "Not Found" });
    expect(await load()).toEqual({ config: DEFAULT_CONFIG, sources: [] });
  });

  it("reads the repository's file and does not ask the organisation", async () => {
    nock(API)
      .get(REPO_CONFIG)
      .matchHeader("accept", "application/vnd.github.v3.raw")
      .reply(200, "implement:\n  check: [npm test]\nreview:\n  drafts: true\n", RAW);
    expect(await load()).toEqual({
      config: withDefaults({ implement: { check: ["npm test"] }, review: { drafts: true } }),
      sources: [".github/crewbot.yml"],
    });
  });

  it("takes an empty repository file as the defaults, and as the repository's own", async () => {
    nock(API).get(REPO_CONFIG).reply(200, "# nothing set yet\n", RAW);
    expect(await load()).toEqual({ config: DEFAULT_CONFIG, sources: [".github/crewbot.yml"] });
  });

  it("falls back to the organisation's .github repository and names it", async () => {
    nock(API)
      .get(REPO_CONFIG)
      .reply(404, { message: "Not Found" })
      .get(ORG_CONFIG)
      .reply(200, "budgets:\n  maxCostUsd: 1.5\nmodels:\n  worker: claude-sonnet-4-5\n", RAW);
    expect(await load()).toEqual({
      config: withDefaults({ budgets: { maxCostUsd: 1.5 }, models: { worker: "claude-sonnet-4-5" } }),
      sources: [ORG_LABEL],
    });
  });

  it("merges a repository file with `_extends: .github` over the organisation's: lists replace, maps merge", async () => {
    const org = [
      "implement:",
      "  check: [a, b]",
      "  setup: [npm ci]",
      "review:",
      "  ignoreAuthors: [bob, carol]",
      "  paths: { include: ['src/**'], exclude: ['**/*.md'] }",
      "models: { worker: claude-sonnet-4-5, planner: claude-opus-4-1 }",
      "budgets: { maxTurns: 10, maxMinutes: 5 }",
    ].join("\n");
    const repo = [
      "_extends: .github",
      "implement:",
      "  check: [c]",
      "review:",
      "  ignoreAuthors: []",
      "  paths: { exclude: [docs/**] }",
      "models: { worker: claude-3-5-haiku@20241022 }",
      "budgets: { maxTurns: 20 }",
    ].join("\n");
    nock(API).get(REPO_CONFIG).reply(200, repo, RAW).get(ORG_CONFIG).reply(200, org, RAW);
    expect(await load()).toEqual({
      config: withDefaults({
        implement: { check: ["c"], setup: ["npm ci"] },
        review: { ignoreAuthors: [], paths: { include: ["src/**"], exclude: ["docs/**"] } },
        models: { worker: "claude-3-5-haiku@20241022", planner: "claude-opus-4-1" },
        budgets: { maxTurns: 20, maxMinutes: 5 },
      }),
      sources: [".github/crewbot.yml", ORG_LABEL],
    });
  });

  it("follows `_extends` to another repository and path, naming each file", async () => {
    nock(API)
      .get(REPO_CONFIG)
      .reply(200, "_extends: shared/settings:configs/crewbot.yml\nsandbox: { network: true }\n", RAW)
      .get("/repos/shared/settings/contents/configs%2Fcrewbot.yml")
      .reply(200, "sandbox: { network: false }\ncommands: { review: false }\n", RAW);
    expect(await load()).toEqual({
      config: withDefaults({ sandbox: { network: true }, commands: { review: false } }),
      sources: [".github/crewbot.yml", "shared/settings: configs/crewbot.yml"],
    });
  });

  it("uses the repository file alone when the file it extends does not exist", async () => {
    nock(API).get(REPO_CONFIG).reply(200, "_extends: .github\nimplement: { draft: false }\n", RAW).get(ORG_CONFIG).reply(404, { message: "Not Found" });
    expect(await load()).toEqual({ config: withDefaults({ implement: { draft: false } }), sources: [".github/crewbot.yml"] });
  });

  it("names the organisation's file when the problem is in it (fallback)", async () => {
    nock(API).get(REPO_CONFIG).reply(404, { message: "Not Found" }).get(ORG_CONFIG).reply(200, "review:\n  auto: sometimes\n", RAW);
    const error = await loadError();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ file: ORG_LABEL, problems: ['`review.auto`: expected true or false, got "sometimes"'] });
  });

  it("names the organisation's file when the problem is in the file the repository extends", async () => {
    nock(API)
      .get(REPO_CONFIG)
      .reply(200, "_extends: .github\nimplement: { check: [npm test] }\n", RAW)
      .get(ORG_CONFIG)
      .reply(200, "budgets: { maxTurns: 0 }\nunknown: 1\n", RAW);
    const error = await loadError();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({
      file: ORG_LABEL,
      problems: [
        "`budgets.maxTurns`: expected a whole number above 0, got the number 0",
        "`unknown`: unknown key; expected one of commands, triggers, learnings, review, implement, budgets, mcp, models, sandbox, ask, transcripts",
      ],
    });
  });

  it("names the repository's file when the problem is in it, even over a good organisation file", async () => {
    nock(API)
      .get(REPO_CONFIG)
      .reply(200, "_extends: .github\nimplement:\n  setup:\n    - npm ci\n    - 42\n", RAW)
      .get(ORG_CONFIG)
      .reply(200, "implement: { check: [a] }\n", RAW);
    const error = await loadError();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ file: ".github/crewbot.yml", problems: ["`implement.setup[1]`: expected a command (a string), got the number 42"] });
  });

  it("refuses a file that is a list", async () => {
    nock(API).get(REPO_CONFIG).reply(200, "- plan\n- review\n", RAW);
    const error = await loadError();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ file: ".github/crewbot.yml", problems: ["`(top level)`: expected a map of settings (see DESIGN.md §5), got a list"] });
  });

  it("turns YAML that does not parse into a ConfigError", async () => {
    nock(API).get(REPO_CONFIG).reply(200, "implement:\n  check: [a, b\nreview: {\n", RAW);
    const error = await loadError();
    expect(error).toBeInstanceOf(ConfigError);
    const { file, problems } = error as ConfigError;
    expect(file).toBe(".github/crewbot.yml");
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/invalid YAML/);
    expect(problems[0]).not.toMatch(/^\[@probot/);
  });

  it("turns YAML that does not parse in the organisation's file into a ConfigError pointing at that file", async () => {
    nock(API).get(REPO_CONFIG).reply(404, { message: "Not Found" }).get(ORG_CONFIG).reply(200, "review: {\n", RAW);
    const error = await loadError();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([expect.stringContaining(`/repos/${OWNER}/.github/contents/`)]);
    expect((error as ConfigError).file).toBe(`${OWNER}/.github: .github/crewbot.yml`);
  });

  it("turns a file that is a plain string into a ConfigError", async () => {
    nock(API).get(REPO_CONFIG).reply(200, "just some words\n", RAW);
    const error = await loadError();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([expect.stringMatching(/YAML is not an object/)]);
  });

  it("turns an `_extends` loop into a ConfigError", async () => {
    nock(API).get(REPO_CONFIG).reply(200, "_extends: .github\n", RAW).get(ORG_CONFIG).reply(200, "_extends: app\n", RAW);
    const error = await loadError();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([expect.stringMatching(/^Recursion detected/)]);
  });

  it("turns a bad `_extends` value into a ConfigError", async () => {
    nock(API).get(REPO_CONFIG).reply(200, "_extends: [a, b]\n", RAW);
    const error = await loadError();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([expect.stringMatching(/^Invalid value \["a","b"\] for _extends/)]);
  });

  it("throws a GitHub 500 as it is, not as a ConfigError", async () => {
    nock(API).get(REPO_CONFIG).reply(500, { message: "Server Error" });
    const error = await loadError();
    expect(error).not.toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ status: 500 });
  });

  it("throws a 500 on the organisation's file as it is", async () => {
    nock(API).get(REPO_CONFIG).reply(404, { message: "Not Found" }).get(ORG_CONFIG).reply(500, { message: "Server Error" });
    const error = await loadError();
    expect(error).not.toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ status: 500 });
  });

  it("throws a 403 (no access to contents) as it is", async () => {
    nock(API).get(REPO_CONFIG).reply(403, { message: "Resource not accessible by integration" });
    const error = await loadError();
    expect(error).not.toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ status: 403 });
  });

  it("refuses a file of 12 000 keys in one map in linear time, naming the file and the map", async () => {
    const text = `models: {${Array.from({ length: 12_000 }, (_, i) => i.toString(36)).join(", ")}}\n`;
    nock(API).get(REPO_CONFIG).reply(200, text, RAW);
    const error = await inLinearTimeAsync(loadError);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).file).toBe(".github/crewbot.yml");
    expect((error as ConfigError).problems).toEqual(["`models`: a map of 12,000 entries; crewbot reads at most 1,000 in one map or list"]);
  });

  it("refuses a file of 60 000 lone carriage returns in linear time (YAML reads them in quadratic time)", async () => {
    nock(API).get(REPO_CONFIG).reply(200, `review:\n  auto: true\n${"\r".repeat(60_000)}x`, RAW);
    const error = (await inLinearTimeAsync(loadError)) as ConfigError;
    expect(error.problems).toEqual(["60,000 lines end in a lone carriage return (\\r); crewbot reads at most 1,000 (end lines with \\n)"]);
  });

  it("refuses the organisation's file over 64 KB without parsing it, naming that file", async () => {
    const text = `review:\n  ignoreTitles: ["${"x".repeat(70_000)}"]\n`;
    nock(API).get(REPO_CONFIG).reply(404, { message: "Not Found" }).get(ORG_CONFIG).reply(200, text, RAW);
    const error = (await loadError()) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.file).toBe(ORG_LABEL);
    expect(error.problems).toEqual([`the file is ${text.length.toLocaleString("en-US")} characters long; crewbot reads at most 65,536`]);
  });
});
