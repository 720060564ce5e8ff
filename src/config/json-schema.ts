/**
 * The JSON Schema of `.github/crewbot.yml`, made from ConfigSchema (the one place keys, defaults
 * and descriptions are written), for editors (`# yaml-language-server: $schema=…`), for
 * `crewbot config schema` and for docs/configuration.md.
 */
import { z } from "zod";
import { ConfigSchema } from "./schema.js";

/** The part of JSON Schema that ConfigSchema turns into (draft 7). */
export interface JsonSchema {
  $schema?: string;
  title?: string;
  description?: string;
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  anyOf?: JsonSchema[];
  [keyword: string]: unknown;
}

/** Where the generated schema is committed, relative to the repository root. */
export const JSON_SCHEMA_PATH = "schema/crewbot.schema.json";

const EXTENDS: JsonSchema = {
  type: "string",
  description:
    "Build on another config file: `.github` (the organisation's `.github` repository), `other-repo`, or `org/repo:path.yml`. " +
    "Maps merge key by key; lists and values of this file replace the other's. Followed on GitHub only: `crewbot config validate` checks this file alone.",
};

/**
 * The keys as crewbot checks them, once `_extends` is followed. `io: "input"` because a config
 * file is input: a key with a default is optional, never `required`. Draft 7 because it is what
 * yaml-language-server (VS Code's YAML extension) ships with; nothing here needs a later draft.
 */
export function configKeysJsonSchema(): JsonSchema {
  return z.toJSONSchema(ConfigSchema, { io: "input", target: "draft-07" }) as JsonSchema;
}

/** `type: [t, "null"]`: a key written with nothing after it is YAML null, which crewbot reads as its default. */
function orNull(schema: JsonSchema, path: string): JsonSchema {
  // A key whose value may be null already (`budgets.monthlyUsd`) stays as it is.
  if (schema.anyOf?.some((s) => s.type === "null")) return schema;
  if (typeof schema.type !== "string") throw new Error(`${path}: no single JSON Schema type to add null to`);
  const nullable: JsonSchema = { ...schema, type: [schema.type, "null"] };
  if (schema.enum) nullable.enum = [...schema.enum, null];
  return nullable;
}

/** Every value of every map may also be null; list items may not (crewbot refuses `[null]`). */
function withEmptyValues(schema: JsonSchema, path: string): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, value]) => [key, orNull(withEmptyValues(value, `${path}.${key}`), `${path}.${key}`)]),
    );
  }
  if (typeof schema.additionalProperties === "object") {
    out.additionalProperties = orNull(withEmptyValues(schema.additionalProperties, `${path}.*`), `${path}.*`);
  }
  return out;
}

/**
 * The schema of the file as it is written: the keys, plus the top-level `_extends`, and an empty
 * value allowed wherever crewbot allows one (`false` or `0` as the whole file, which crewbot
 * also reads as the defaults as GitHub's config plugin does, are left out: nobody means them). Unknown keys are refused at every level, as crewbot
 * refuses them.
 */
export function configFileJsonSchema(): JsonSchema {
  // The whole file may be empty (or only comments) too: the defaults.
  const { $schema, description, properties, ...rest } = orNull(withEmptyValues(configKeysJsonSchema(), "(top level)"), "(top level)");
  return { $schema, title: "crewbot configuration (.github/crewbot.yml)", description, ...rest, properties: { _extends: EXTENDS, ...properties } };
}

/** The committed file's text: `schema/crewbot.schema.json`, and what `crewbot config schema` prints. */
export function renderJsonSchemaFile(schema: JsonSchema = configFileJsonSchema()): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
