/**
 * An MCP tool's input schema, as the model is offered it and as its input is checked: the server's
 * JSON schema turned into a zod schema (tools/schema.ts derives what the model sees from it and
 * validates the model's arguments against it, as for every other tool). A schema that is no object
 * schema, is too big or too deep (also once its references are expanded: a few kilobytes of
 * references to references stand for gigabytes), or holds a regular expression (run on the model's arguments on
 * crewbot's event loop, a pattern could hang it) is refused: the tool is left out.
 */
import { z } from "zod";
import type { Tool } from "../tools/types.js";
import { toolSpec } from "../tools/schema.js";

const MAX_SCHEMA_CHARS = 32 * 1024;
const MAX_DEPTH = 24;
/** Nodes the schema may have once its `$ref`s are expanded: each reference is a copy, so references to references grow as a power. */
const MAX_EXPANDED_NODES = 10_000;
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
  const problem = walk(raw, 0, false) ?? tooLargeExpanded(raw);
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

/** Counts the schema's nodes with every internal `$ref` expanded, each target sized once; a reference back into itself counts one. */
function tooLargeExpanded(root: unknown): string | undefined {
  const sizes = new Map<string, number>();
  const open = new Set<string>();
  const refSize = (ref: string): number => {
    const known = sizes.get(ref);
    if (known !== undefined) return known;
    if (open.has(ref)) return 1;
    open.add(ref);
    const n = size(pointer(root, ref));
    open.delete(ref);
    sizes.set(ref, n);
    return n;
  };
  const size = (node: unknown): number => {
    if (typeof node !== "object" || node === null) return 1;
    let n = 1;
    for (const [key, child] of Object.entries(node)) {
      n += key === "$ref" && typeof child === "string" ? refSize(child) : size(child);
      if (n > MAX_EXPANDED_NODES) return n;
    }
    return n;
  };
  return size(root) > MAX_EXPANDED_NODES ? `expands to more than ${MAX_EXPANDED_NODES.toLocaleString("en-US")} nodes through its references ($ref)` : undefined;
}

/** The node a `#/…` JSON pointer names in `root`; undefined when there is none. */
function pointer(root: unknown, ref: string): unknown {
  let node = root;
  for (const part of ref.replace(/^#\/?/, "").split("/").filter((p) => p !== "")) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return node;
}
