/**
 * An MCP tool's input schema, as the model is offered it and as its input is checked: the server's
 * JSON schema turned into a zod schema (tools/schema.ts derives what the model sees from it and
 * validates the model's arguments against it, as for every other tool). A schema that is no object
 * schema, is too big or too deep, or holds a regular expression (run on the model's arguments on
 * crewbot's event loop, a pattern could hang it) is refused: the tool is left out.
 */
import { z } from "zod";
import type { Tool } from "../tools/types.js";
import { toolSpec } from "../tools/schema.js";

const MAX_SCHEMA_CHARS = 32 * 1024;
const MAX_DEPTH = 24;
/** Maps whose keys are names chosen by the server (a property called `pattern` is no keyword). */
const NAME_MAPS = new Set(["properties", "$defs", "definitions"]);
const REGEX_KEYWORDS = new Set(["pattern", "patternProperties"]);

export type SchemaCheck = { ok: true; schema: z.ZodType } | { ok: false; reason: string };

export function inputSchemaOf(raw: unknown): SchemaCheck {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw) || (raw as { type?: unknown }).type !== "object") return { ok: false, reason: "its input schema is not an object schema" };
  let text: string;
  try {
    text = JSON.stringify(raw);
  } catch {
    return { ok: false, reason: "its input schema is not JSON" };
  }
  if (text.length > MAX_SCHEMA_CHARS) return { ok: false, reason: `its input schema is over ${MAX_SCHEMA_CHARS} characters` };
  const problem = walk(raw, 0, false);
  if (problem) return { ok: false, reason: `its input schema ${problem}` };
  try {
    const schema = z.fromJSONSchema(raw as Parameters<typeof z.fromJSONSchema>[0]);
    // What the model will be sent must come out of it too (a recursive schema may not).
    toolSpec({ name: "probe", description: "", schema, readOnly: true, run: async () => ({ output: "", isError: false }) } satisfies Tool);
    return { ok: true, schema };
  } catch (err) {
    return { ok: false, reason: `its input schema cannot be used: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}` };
  }
}

function walk(value: unknown, depth: number, nameMap: boolean): string | undefined {
  if (depth > MAX_DEPTH) return `is nested deeper than ${MAX_DEPTH}`;
  if (typeof value !== "object" || value === null) return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = walk(item, depth + 1, false);
      if (problem) return problem;
    }
    return undefined;
  }
  for (const [key, child] of Object.entries(value)) {
    if (!nameMap && REGEX_KEYWORDS.has(key)) return `has a regular expression (${key})`;
    if (!nameMap && key === "$ref" && typeof child === "string" && !child.startsWith("#")) return "refers outside itself ($ref)";
    const problem = walk(child, depth + 1, !nameMap && NAME_MAPS.has(key));
    if (problem) return problem;
  }
  return undefined;
}
