/**
 * docs/configuration.md, rendered from the JSON Schema of the config file (itself made from
 * ConfigSchema), so the reference cannot drift from what crewbot accepts. Pure: `npm run docs`
 * writes what `generatedDocs` returns, and a test compares it with the committed files.
 */
import { CONFIG_PATH } from "./schema.js";
import { configFileJsonSchema, JSON_SCHEMA_PATH, renderJsonSchemaFile, type JsonSchema } from "./json-schema.js";

export const REFERENCE_PATH = "docs/configuration.md";
/** A complete, valid example config, shown in the reference and checked by the tests. */
export const EXAMPLE_PATH = "docs/crewbot.example.yml";

/** One key of the reference table. */
export interface KeyRow {
  /** `review.paths.include`. */
  path: string;
  type: string;
  /** The default as YAML would write it; "" for a map whose keys have their own. */
  default: string;
  description: string;
}

const UNBOUNDED = Number.MAX_SAFE_INTEGER;
const typesOf = (schema: JsonSchema): string[] => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []).filter((t) => t !== "null");

function range(schema: JsonSchema): string {
  const { minimum, maximum, exclusiveMinimum } = schema;
  const max = maximum !== undefined && maximum < UNBOUNDED ? maximum : undefined;
  if (minimum !== undefined && max !== undefined) return `, ${minimum} to ${max}`;
  const bounds = [
    exclusiveMinimum !== undefined ? `> ${exclusiveMinimum}` : minimum !== undefined ? `≥ ${minimum}` : "",
    max !== undefined ? `≤ ${max}` : "",
  ].filter(Boolean);
  return bounds.length > 0 ? ` ${bounds.join(", ")}` : "";
}

/** A list's items, in the plural: `strings (each at most 2000 characters)`. */
function itemsOf(items: JsonSchema): string {
  const [type = "any"] = typesOf(items);
  if (items.enum || (type !== "string" && type !== "boolean")) return `items (${typeOf(items)})`;
  return `${type}s${items.maxLength !== undefined ? ` (each at most ${items.maxLength} characters)` : ""}`;
}

/** What a value must be, in words; patterns are left to the description (a regex helps no one here). */
export function typeOf(schema: JsonSchema): string {
  // A nullable key (`budgets.monthlyUsd`): its one other type, "or null".
  const [only, ...more] = schema.anyOf?.filter((s) => s.type !== "null") ?? [];
  if (only && more.length === 0) return `${typeOf(only)} or \`null\``;
  const enumValues = schema.enum?.filter((v) => v !== null);
  if (enumValues) return enumValues.map((v) => `\`${String(v)}\``).join(" \\| ");
  const [type = "any"] = typesOf(schema);
  if (type === "integer" || type === "number") return `${type}${range(schema)}`;
  if (type === "string") return schema.maxLength !== undefined ? `string of at most ${schema.maxLength} characters` : "string";
  if (type === "array") {
    const items = schema.items ? itemsOf(schema.items) : "items";
    return schema.maxItems !== undefined ? `list of at most ${schema.maxItems} ${items}` : `list of ${items}`;
  }
  if (type === "object" && typeof schema.additionalProperties === "object") {
    const value = schema.additionalProperties;
    return `map: ${schema.propertyNames?.description ?? "a name"} → ${value.description ?? typeOf(value)}`;
  }
  return type === "object" ? "map" : type;
}

/** A value as a YAML flow would write it: `["**"]`, `{}`, `"crewbot:plan"`, `60`. */
function flow(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(flow).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(([k, v]) => `${k}: ${flow(v)}`);
    return entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`;
  }
  return JSON.stringify(value);
}

/** The default of a key; none for a map whose keys have their own. */
const defaultOf = (schema: JsonSchema): string => (schema.default === undefined || schema.properties ? "" : `\`${flow(schema.default)}\``);

/** Every key under `schema`, depth first in the schema's order: maps first, then their keys. */
export function keyRows(schema: JsonSchema, prefix = ""): KeyRow[] {
  return Object.entries(schema.properties ?? {}).flatMap(([key, value]) => {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    const row: KeyRow = { path, type: typeOf(value), default: defaultOf(value), description: value.description ?? "" };
    return [row, ...keyRows(value, path)];
  });
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ");
const cell = (text: string) => oneLine(text).replace(/\|/g, "\\|");
const code = (text: string) => `\`${text}\``;

function table(rows: KeyRow[]): string[] {
  return [
    "| key | type | default | description |",
    "|---|---|---|---|",
    // typeOf escapes its own pipes (enum values); the rest is escaped here.
    ...rows.map((r) => `| ${code(r.path)} | ${r.type} | ${r.default} | ${cell(r.description)} |`),
  ];
}

/** One section per top-level key: its description, then a table of it (a value) or of its keys (a map). */
function section(key: string, schema: JsonSchema): string[] {
  const rows = schema.properties ? keyRows(schema, key) : [{ path: key, type: typeOf(schema), default: defaultOf(schema), description: schema.description ?? "" }];
  const intro = schema.properties ? [oneLine(schema.description ?? ""), ""] : [];
  return [`### ${code(key)}`, "", ...intro, ...table(rows), ""];
}

const RAW_URL = `https://raw.githubusercontent.com/<owner>/crewbot/main/${JSON_SCHEMA_PATH}`;

/** The reference page. `example` is the text of EXAMPLE_PATH. */
export function renderReference(schema: JsonSchema, example: string): string {
  const keys = Object.entries(schema.properties ?? {});
  return [
    `<!-- Generated by \`npm run docs\` from src/config/schema.ts: change the schema and run it again, not this file. -->`,
    "",
    `# Configuration: ${code(CONFIG_PATH)}`,
    "",
    oneLine(schema.description ?? ""),
    "",
    `crewbot reads the file from the default branch when a job starts, never from a pull request's head. A repository`,
    `without one uses its organisation's \`.github\` repository's ${code(CONFIG_PATH)}. A key written with nothing after it`,
    "(`implement:` whose lines are all commented out) keeps its default. Check a file before pushing it with",
    `\`npx crewbot config validate ${CONFIG_PATH}\`; \`npx crewbot config print ${CONFIG_PATH}\` shows the effective config,`,
    "defaults filled in.",
    "",
    "## Checking the file in your editor",
    "",
    `${code(JSON_SCHEMA_PATH)} is the file's JSON Schema (draft 7), made from the same schema as this page;`,
    "`npx crewbot config schema` prints it. Editors that run yaml-language-server (VS Code's YAML extension, and",
    "others through the language server protocol) then complete keys, show these descriptions and mark wrong values and",
    "unknown keys, once the file's first line names the schema. Either a copy next to the file (a relative path is",
    "relative to the YAML file):",
    "",
    "```sh",
    `npx crewbot config schema > .github/crewbot.schema.json`,
    "```",
    "",
    "```yaml",
    "# yaml-language-server: $schema=./crewbot.schema.json",
    "```",
    "",
    "or the published file, where `<owner>` is the GitHub owner of the crewbot repository you run:",
    "",
    "```yaml",
    `# yaml-language-server: $schema=${RAW_URL}`,
    "```",
    "",
    "`crewbot config validate` remains the check crewbot itself makes. Neither can know whether `implement.chain` names",
    "a chain the repository has: a job says so when it starts.",
    "",
    "## Example",
    "",
    `${code(EXAMPLE_PATH)}:`,
    "",
    "```yaml",
    example.trimEnd(),
    "```",
    "",
    "## Keys",
    "",
    "Every key is optional; a key that is not listed here is an error.",
    "",
    ...keys.flatMap(([key, value]) => section(key, value)),
  ].join("\n");
}

/** The files `npm run docs` writes, each with its text. `example` is the text of EXAMPLE_PATH. */
export function generatedDocs(example: string): { path: string; text: string }[] {
  const schema = configFileJsonSchema();
  return [
    { path: JSON_SCHEMA_PATH, text: renderJsonSchemaFile(schema) },
    { path: REFERENCE_PATH, text: renderReference(schema, example) },
  ];
}
