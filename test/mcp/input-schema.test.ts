/**
 * An MCP tool's input schema is a stranger's JSON that crewbot turns into a zod schema and sends
 * to the model: a schema that would cost it more than it is worth is refused, the tool left out.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inputSchemaOf } from "../../src/mcp/input-schema.js";
import { inLinearTime } from "../helpers/linear-time.js";

/** `depth` definitions, each referring to the next twice: 2^depth copies once expanded. */
function referenceBomb(depth: number): Record<string, unknown> {
  const defs: Record<string, unknown> = { [`d${depth}`]: { type: "string" } };
  for (let i = 0; i < depth; i++) defs[`d${i}`] = { type: "object", properties: { a: { $ref: `#/$defs/d${i + 1}` }, b: { $ref: `#/$defs/d${i + 1}` } } };
  return { type: "object", properties: { x: { $ref: "#/$defs/d0" } }, $defs: defs };
}

describe("inputSchemaOf", () => {
  it("takes an ordinary schema, references included", () => {
    const schema = { type: "object", properties: { issue: { $ref: "#/$defs/key" }, also: { $ref: "#/$defs/key" } }, required: ["issue"], $defs: { key: { type: "string", description: "ABC-1" } } };
    const check = inputSchemaOf(schema);
    expect(check.ok).toBe(true);
    if (check.ok) expect(check.schema.safeParse({ issue: "ABC-1" }).success).toBe(true);
  });

  it("refuses references to references that would expand beyond 10,000 nodes, in linear time (2 KB stood for a 2^300 tree)", () => {
    for (const depth of [14, 300]) {
      const check = inLinearTime(() => inputSchemaOf(referenceBomb(depth)));
      expect(check).toEqual({ ok: false, reason: "its input schema expands to more than 10,000 nodes through its references ($ref)" });
    }
  });

  it("a reference back into itself is sized once (no endless expansion), and a reference to nothing is refused", () => {
    const recursive = { type: "object", properties: { child: { $ref: "#" } } };
    // Sized once: no endless expansion; whether zod can use it is its own answer.
    expect(inLinearTime(() => inputSchemaOf(recursive))).toHaveProperty("ok");
    const dangling = inputSchemaOf({ type: "object", properties: { x: { $ref: "#/$defs/none" } } });
    expect(dangling.ok).toBe(false);
  });

  it("never throws, whatever JSON it is given", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.jsonValue({ maxDepth: 4 }), (properties, defs) => {
        const check = inputSchemaOf({ type: "object", properties, $defs: defs });
        expect(typeof check.ok).toBe("boolean");
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
