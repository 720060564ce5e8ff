/**
 * A small, strict checker for the part of JSON Schema (OpenAPI 3.0 flavour) that GitHub's REST
 * descriptions use in request bodies and parameters. No validator package is installed, and this
 * subset is small: type, nullable, enum, required, properties, additionalProperties, items,
 * oneOf/anyOf/allOf, lengths, counts, bounds, pattern and the date-time format.
 */

export interface Schema {
  $ref?: string;
  type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  nullable?: boolean;
  enum?: unknown[];
  required?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  maxProperties?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
}

/** The keywords the checker reads; everything else (descriptions, examples, defaults) is dropped when compiling. */
export const SCHEMA_KEYWORDS = [
  "$ref", "type", "nullable", "enum", "required", "properties", "additionalProperties", "items", "oneOf", "anyOf", "allOf",
  "minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "maxProperties", "minimum", "maximum", "pattern", "format",
] as const;

export type Resolve = (ref: string) => Schema;

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})$/;

const show = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

function typeProblem(type: Schema["type"], value: unknown): boolean {
  switch (type) {
    case "string": return typeof value !== "string";
    case "integer": return !Number.isInteger(value);
    case "number": return typeof value !== "number" || !Number.isFinite(value);
    case "boolean": return typeof value !== "boolean";
    case "array": return !Array.isArray(value);
    case "object": return typeof value !== "object" || value === null || Array.isArray(value);
    default: return false;
  }
}

function alternatives(branches: Schema[], value: unknown, at: string, resolve: Resolve): string[] {
  // GitHub's descriptions use oneOf for alternatives that may overlap (an object without required
  // keys fits several), so one fitting branch is enough, as for anyOf.
  const tried = branches.map((b) => schemaProblems(b, value, at, resolve));
  if (tried.some((p) => p.length === 0)) return [];
  const nearest = tried.reduce((a, b) => (b.length < a.length ? b : a));
  if (branches.length === 1) return nearest;
  return [`${at} fits none of the ${branches.length} allowed forms; nearest: ${nearest.join("; ")}`];
}

/** Why `value` does not fit `schema` (empty: it fits). `at` names the value in messages, e.g. `body.output`. */
export function schemaProblems(input: Schema, value: unknown, at: string, resolve: Resolve): string[] {
  let schema = input;
  for (let hops = 0; schema.$ref !== undefined; hops++) {
    if (hops > 32) throw new Error(`$ref loop at ${input.$ref}`);
    schema = resolve(schema.$ref);
  }
  if (value === null) {
    if (schema.nullable || schema.enum?.includes(null)) return [];
    if (schema.type) return [`${at} must not be null`];
  } else if (typeProblem(schema.type, value)) {
    return [`${at} must be ${schema.type === "integer" || schema.type === "array" || schema.type === "object" ? "an" : "a"} ${schema.type} (got ${show(value)})`];
  }
  const problems: string[] = [];
  if (schema.enum && !schema.enum.includes(value)) problems.push(`${at} must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(", ")} (got ${show(value)})`);
  if (typeof value === "string") problems.push(...stringProblems(schema, value, at));
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${at} must be at least ${schema.minimum} (got ${value})`);
    if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${at} must be at most ${schema.maximum} (got ${value})`);
  }
  if (Array.isArray(value)) problems.push(...arrayProblems(schema, value, at, resolve));
  else if (typeof value === "object" && value !== null) problems.push(...objectProblems(schema, value as Record<string, unknown>, at, resolve));
  for (const part of schema.allOf ?? []) problems.push(...schemaProblems(part, value, at, resolve));
  if (schema.anyOf) problems.push(...alternatives(schema.anyOf, value, at, resolve));
  if (schema.oneOf) problems.push(...alternatives(schema.oneOf, value, at, resolve));
  return problems;
}

function stringProblems(schema: Schema, value: string, at: string): string[] {
  const problems: string[] = [];
  const length = [...value].length;
  if (schema.minLength !== undefined && length < schema.minLength) problems.push(`${at} must have at least ${schema.minLength} characters (has ${length})`);
  if (schema.maxLength !== undefined && length > schema.maxLength) problems.push(`${at} must have at most ${schema.maxLength} characters (has ${length})`);
  if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) problems.push(`${at} must match /${schema.pattern}/ (got ${show(value)})`);
  if (schema.format === "date-time" && !DATE_TIME.test(value)) problems.push(`${at} must be an ISO 8601 date-time (got ${show(value)})`);
  return problems;
}

function arrayProblems(schema: Schema, value: unknown[], at: string, resolve: Resolve): string[] {
  const problems: string[] = [];
  if (schema.minItems !== undefined && value.length < schema.minItems) problems.push(`${at} must have at least ${schema.minItems} items (has ${value.length})`);
  if (schema.maxItems !== undefined && value.length > schema.maxItems) problems.push(`${at} must have at most ${schema.maxItems} items (has ${value.length})`);
  if (schema.uniqueItems && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) problems.push(`${at} must not repeat items`);
  if (schema.items) value.forEach((item, i) => problems.push(...schemaProblems(schema.items!, item, `${at}[${i}]`, resolve)));
  return problems;
}

function objectProblems(schema: Schema, value: Record<string, unknown>, at: string, resolve: Resolve): string[] {
  const problems: string[] = [];
  for (const key of schema.required ?? []) if (value[key] === undefined) problems.push(`${at}.${key} is required`);
  const keys = Object.keys(value).filter((k) => value[k] !== undefined);
  if (schema.maxProperties !== undefined && keys.length > schema.maxProperties) problems.push(`${at} must have at most ${schema.maxProperties} keys (has ${keys.length})`);
  for (const key of keys) {
    const known = schema.properties?.[key];
    if (known) problems.push(...schemaProblems(known, value[key], `${at}.${key}`, resolve));
    else if (schema.additionalProperties === false) problems.push(`${at}.${key} is not a permitted key`);
    else if (typeof schema.additionalProperties === "object") problems.push(...schemaProblems(schema.additionalProperties, value[key], `${at}.${key}`, resolve));
  }
  return problems;
}
