/** docs/configuration.md: rendered from the schema, committed as rendered, and complete. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { z } from "zod";
import { configFileJsonSchema, configKeysJsonSchema, JSON_SCHEMA_PATH, type JsonSchema } from "../../src/config/json-schema.js";
import { EXAMPLE_PATH, generatedDocs, keyRows, REFERENCE_PATH, renderReference, typeOf } from "../../src/config/reference.js";
import { DEFAULT_CONFIG } from "../../src/config/schema.js";

const root = path.resolve(import.meta.dirname, "../..");
const committed = (file: string) => readFileSync(path.join(root, file), "utf8");

const draft7 = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "input", target: "draft-07" }) as JsonSchema;

/** Every path of a plain object, maps included, as `a.b.c`. */
function pathsOf(value: unknown, prefix = ""): string[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const at = prefix === "" ? key : `${prefix}.${key}`;
    return [at, ...pathsOf(inner, at)];
  });
}

function valueAt(value: unknown, dotted: string): unknown {
  return dotted.split(".").reduce<unknown>((v, key) => (v as Record<string, unknown>)[key], value);
}

describe("typeOf", () => {
  it.each<[string, z.ZodType, string]>([
    ["a flag", z.boolean(), "boolean"],
    ["a choice", z.enum(["git", "api"]), "`git` \\| `api`"],
    ["a string", z.string(), "string"],
    ["a short string", z.string().max(50), "string of at most 50 characters"],
    ["a bounded whole number", z.number().int().min(0).max(10), "integer, 0 to 10"],
    ["a positive whole number (no upper bound shown)", z.number().int().positive(), "integer > 0"],
    ["a positive number with a cap", z.number().positive().max(720), "number > 0, ≤ 720"],
    ["a number from 1", z.number().min(1), "number ≥ 1"],
    ["a list of strings", z.array(z.string()), "list of strings"],
    ["a short list of short strings", z.array(z.string().max(9)).max(3), "list of at most 3 strings (each at most 9 characters)"],
    ["a list of choices", z.array(z.enum(["a", "b"])), "list of items (`a` \\| `b`)"],
    ["a map of keys", z.strictObject({ a: z.boolean() }), "map"],
    ["a map of names", z.record(z.string(), z.string()), "map: a name → string"],
    ["a map whose names are described", z.record(z.string().describe("an agent"), z.string().describe("a model")), "map: an agent → a model"],
  ])("%s", (_name, schema, type) => {
    expect(typeOf(draft7(schema))).toBe(type);
  });

  it("leaves out the null an empty value may be", () => {
    expect(typeOf({ type: ["integer", "null"], minimum: 0, maximum: 5 })).toBe("integer, 0 to 5");
    expect(typeOf({ type: ["string", "null"], enum: ["on", "off", null] })).toBe("`on` \\| `off`");
  });
});

describe("keyRows", () => {
  const schema = draft7(
    z.strictObject({
      on: z.boolean().default(true).describe("Whether it is on."),
      limits: z
        .strictObject({
          max: z.number().int().min(1).max(9).default(3).describe("At most this many."),
          names: z.array(z.string()).default(["a", "b"]).describe("Names | with a pipe."),
        })
        .prefault({})
        .describe("The limits."),
      label: z.string().default("x:y").describe("A label."),
    }),
  );

  it("lists every key depth first, each with its type, default and description", () => {
    expect(keyRows(schema)).toEqual([
      { path: "on", type: "boolean", default: "`true`", description: "Whether it is on." },
      { path: "limits", type: "map", default: "", description: "The limits." },
      { path: "limits.max", type: "integer, 1 to 9", default: "`3`", description: "At most this many." },
      { path: "limits.names", type: "list of strings", default: '`["a", "b"]`', description: "Names | with a pipe." },
      { path: "label", type: "string", default: '`"x:y"`', description: "A label." },
    ]);
  });

  it("renders a section per top-level key, pipes escaped, with the example", () => {
    const page = renderReference({ description: "The whole file.", properties: schema.properties }, "on: false\n");
    expect(page).toContain("The whole file.");
    expect(page).toContain("```yaml\non: false\n```");
    expect(page).toContain("### `limits`\n\nThe limits.\n\n| key | type | default | description |\n|---|---|---|---|\n");
    expect(page).toContain("| `limits.names` | list of strings | `[\"a\", \"b\"]` | Names \\| with a pipe. |");
    expect(page).toContain("### `on`\n\n| key | type | default | description |\n|---|---|---|---|\n| `on` | boolean | `true` | Whether it is on. |");
  });
});

describe("docs/configuration.md", () => {
  const [, reference] = generatedDocs(committed(EXAMPLE_PATH));

  it("is what the schema makes now (else run `npm run docs`)", () => {
    expect(reference!.path).toBe(REFERENCE_PATH);
    expect(committed(REFERENCE_PATH), `${REFERENCE_PATH} is out of date: run \`npm run docs\` and commit it`).toBe(reference!.text);
  });

  it("has a row for every key crewbot reads, and for `_extends`", () => {
    const rows = keyRows(configFileJsonSchema()).map((r) => r.path);
    expect(rows).toEqual(["_extends", ...pathsOf(DEFAULT_CONFIG)]);
  });

  it("describes every key and every section for a maintainer", () => {
    const schema = configFileJsonSchema();
    const undescribed = keyRows(schema).filter((r) => r.description.trim().length < 15).map((r) => r.path);
    expect(undescribed).toEqual([]);
    expect(schema.description).toBeTruthy();
  });

  it("shows each key's default as crewbot fills it in", () => {
    const leaves = keyRows(configKeysJsonSchema()).filter((r) => r.default !== "");
    expect(leaves.length).toBeGreaterThan(30);
    for (const row of leaves) expect(YAML.parse(row.default.replace(/^`|`$/g, "")), row.path).toEqual(valueAt(DEFAULT_CONFIG, row.path));
  });

  it("shows the yaml-language-server line in its relative and its raw-URL form", () => {
    const text = reference!.text;
    expect(text).toContain("# yaml-language-server: $schema=./crewbot.schema.json");
    expect(text).toContain(`# yaml-language-server: $schema=https://raw.githubusercontent.com/<owner>/crewbot/main/${JSON_SCHEMA_PATH}`);
    expect(text).toContain("npx crewbot config schema > .github/crewbot.schema.json");
  });
});
