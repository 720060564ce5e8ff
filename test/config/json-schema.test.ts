/**
 * schema/crewbot.schema.json, the JSON Schema editors check `.github/crewbot.yml` with: committed
 * as generated, valid draft 7, and saying yes and no where crewbot itself does (checked with Ajv,
 * a JSON Schema validator of its own, against `crewbot config validate`'s loader).
 */
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { Ajv, type ErrorObject } from "ajv";
import { beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { configFileJsonSchema, JSON_SCHEMA_PATH, renderJsonSchemaFile, type JsonSchema } from "../../src/config/json-schema.js";
import { loadConfigFile } from "../../src/config/load.js";
import { EXAMPLE_PATH } from "../../src/config/reference.js";
import { tempDir } from "../helpers/git-repo.js";

const root = path.resolve(import.meta.dirname, "../..");
const committed = (file: string) => readFileSync(path.join(root, file), "utf8");

// strict: an unknown keyword or a misplaced one in the generated schema is an error, not ignored.
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
const validate = ajv.compile(JSON.parse(committed(JSON_SCHEMA_PATH)) as JsonSchema);

/** The schema's verdict on a YAML text, and its errors as `path: message` (`/review/paths: must NOT have additional properties`). */
function schemaSays(text: string): { ok: boolean; errors: string[] } {
  const ok = validate(YAML.parse(text, { logLevel: "error" }));
  const errors = (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath || "/"}: ${e.message}${e.keyword === "additionalProperties" ? ` (${String(e.params.additionalProperty)})` : ""}`);
  return { ok, errors };
}

let dir: string;
beforeAll(async () => {
  dir = await tempDir("crewbot-json-schema-");
});

/** crewbot's verdict, exactly as `crewbot config validate` reaches it (`_extends`, empty files and all). */
async function crewbotSays(text: string): Promise<boolean> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.yml`);
  await writeFile(file, text);
  return loadConfigFile(file).then(
    () => true,
    (error: Error) => {
      if (error.name !== "ConfigError") throw error;
      return false;
    },
  );
}

describe("the committed JSON Schema", () => {
  it(`is what the schema makes now (else run \`npm run docs\`)`, () => {
    expect(committed(JSON_SCHEMA_PATH), `${JSON_SCHEMA_PATH} is out of date: run \`npm run docs\` and commit it`).toBe(renderJsonSchemaFile());
  });

  it("is draft 7, which yaml-language-server reads, and titled", () => {
    const schema = configFileJsonSchema();
    expect(schema.$schema).toBe("http://json-schema.org/draft-07/schema#");
    expect(schema.title).toBe("crewbot configuration (.github/crewbot.yml)");
  });

  it("makes no key required: a config file is input, and every key has a default", () => {
    // Only the fields of a list's or a map's entries (review.instructions' paths and text, an MCP server's command and roles) may be required: an entry means nothing without them.
    const requiredAt: string[] = [];
    const walk = (node: unknown, at: string, inItem: boolean): void => {
      if (Array.isArray(node)) return node.forEach((child, i) => walk(child, `${at}[${i}]`, inItem));
      if (!node || typeof node !== "object") return;
      for (const [key, child] of Object.entries(node)) {
        if (key === "required" && !inItem) requiredAt.push(at);
        walk(child, `${at}/${key}`, inItem || key === "items" || key === "additionalProperties");
      }
    };
    walk(JSON.parse(committed(JSON_SCHEMA_PATH)), "#", false);
    expect(requiredAt).toEqual([]);
    expect(schemaSays("{}\n")).toEqual({ ok: true, errors: [] });
  });
});

describe("the bundled example", () => {
  const example = committed(EXAMPLE_PATH);

  it("is valid for the JSON Schema and for crewbot", async () => {
    expect(schemaSays(example)).toEqual({ ok: true, errors: [] });
    expect(await crewbotSays(example)).toBe(true);
  });

  it("names the committed schema on its first line, by a path relative to itself", () => {
    const [first = ""] = example.split("\n");
    const modeline = /^# yaml-language-server: \$schema=(\S+)$/.exec(first);
    expect(modeline, first).not.toBeNull();
    expect(path.resolve(path.dirname(path.join(root, EXAMPLE_PATH)), modeline![1]!)).toBe(path.join(root, JSON_SCHEMA_PATH));
  });

  it("sets every top-level key, so it shows them all", () => {
    const keys = Object.keys(configFileJsonSchema().properties ?? {}).filter((k) => k !== "_extends");
    expect(Object.keys(YAML.parse(example) as object)).toEqual(keys);
  });
});

describe("unknown keys are refused at every level, as crewbot refuses them", () => {
  it.each<[string, string, string]>([
    ["at the top", "reviews:\n  auto: false\n", "/: must NOT have additional properties (reviews)"],
    ["in a section", "review:\n  autoo: false\n", "/review: must NOT have additional properties (autoo)"],
    ["two levels down", "review:\n  paths:\n    inclde: [src/**]\n", "/review/paths: must NOT have additional properties (inclde)"],
    ["in triggers.labels", "triggers:\n  labels: { review: crewbot:review }\n", "/triggers/labels: must NOT have additional properties (review)"],
    ["in implement.ciFix", "implement:\n  ciFix: { round: 1 }\n", "/implement/ciFix: must NOT have additional properties (round)"],
  ])("%s", async (_name, text, error) => {
    expect(schemaSays(text)).toEqual({ ok: false, errors: [error] });
    expect(await crewbotSays(text)).toBe(false);
  });
});

describe("the JSON Schema and crewbot agree", () => {
  const long = "x".repeat(51);
  it.each<[string, string, boolean]>([
    ["an empty file", "", true],
    ["only comments", "# nothing yet\n", true],
    ["an empty section", "implement:\n  # setup: [npm ci]\n", true],
    ["empty values at every depth", "review:\n  paths:\n    include:\nmodels:\n  worker:\n", true],
    ["`_extends` beside keys", "_extends: .github\nreview: { drafts: true }\n", true],
    ["`_extends` with a path", "_extends: acme/settings:crewbot/base.yml\n", true],
    ["`_extends` that is not a string", "_extends: [a, b]\n", false],
    ["an empty `_extends`", "_extends:\n", false],
    ["`_extends` below the top", "review:\n  _extends: .github\n", false],
    ["a label turned off", 'triggers: { labels: { plan: "" } }\n', true],
    ["a label of 51 characters", `triggers: { labels: { plan: ${long} } }\n`, false],
    ["a command with spaces around it", 'implement: { setup: ["  npm ci  "] }\n', true],
    ["a command ending in a newline (a YAML block)", "implement:\n  check:\n    - |\n      npm test\n", true],
    ["two commands in one item", "implement:\n  check:\n    - |\n      npm ci\n      npm test\n", false],
    ["a command of spaces", 'implement: { setup: ["   "] }\n', false],
    ["a command with a NUL", 'implement: { setup: ["npm\\0ci"] }\n', false],
    ["an empty item in a list", "implement:\n  setup:\n    -\n", false],
    ["21 commands", `implement: { check: [${Array.from({ length: 21 }, (_, i) => `c${i}`).join(", ")}] }\n`, false],
    ["20 commands", `implement: { check: [${Array.from({ length: 20 }, (_, i) => `c${i}`).join(", ")}] }\n`, true],
    ["a chain name with a space", "implement: { chain: my chain }\n", false],
    ["a repository's chain", "implement: { chain: my-chain_2 }\n", true],
    ["a commits value of its own", "implement: { commits: ssh }\n", false],
    ["minutes that are not whole", "implement: { ciFix: { rounds: 0, waitMinutes: 0.5 } }\n", true],
    ["rounds that are not whole", "implement: { ciFix: { rounds: 1.5 } }\n", false],
    ["11 rounds", "implement: { ciFix: { rounds: 11 } }\n", false],
    ["a budget of 0 turns", "budgets: { maxTurns: 0 }\n", false],
    ["half a dollar", "budgets: { maxCostUsd: 0.5 }\n", true],
    ["a negative cost", "budgets: { maxCostUsd: -1 }\n", false],
    ["a budget as a string", 'budgets: { maxMinutes: "10" }\n', false],
    ["debounce at its limit", "review: { debounceSeconds: 3600 }\n", true],
    ["debounce past it", "review: { debounceSeconds: 3601 }\n", false],
    ["an unknown failOn", "review: { failOn: always }\n", false],
    ["authors in capitals", "review: { authors: Trusted }\n", false],
    ["yes for a flag (YAML 1.2: a string)", "sandbox: { network: yes }\n", false],
    ["a model id", "models: { worker: claude-sonnet-4-5, planner: claude-3-5-haiku@20241022 }\n", true],
    ["a model id with a space", 'models: { worker: "claude sonnet" }\n', false],
    ["a model per number", "models: { worker: 5 }\n", false],
    ["30 days of waiting", "ask: { timeoutHours: 720 }\n", true],
    ["a question waiting 0 hours", "ask: { timeoutHours: 0 }\n", false],
    ["a list for the whole file", "- plan\n", false],
    ["a section that is a list", "review: [auto]\n", false],
    ["a proof budget past 20", "review: { proofBudget: { max: 21 } }\n", false],
  ])("%s", async (_name, text, valid) => {
    const schema = schemaSays(text);
    expect(schema.ok, `JSON Schema: ${schema.errors.join("; ")}`).toBe(valid);
    expect(await crewbotSays(text)).toBe(valid);
  });
});
