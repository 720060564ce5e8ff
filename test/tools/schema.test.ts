import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toolSpec, validateInput } from "../../src/tools/schema.js";
import type { Tool } from "../../src/tools/types.js";

const tool: Tool<{ path: string; limit?: number }> = {
  name: "read",
  description: "Read a file",
  readOnly: true,
  schema: z.object({ path: z.string().describe("file path"), limit: z.number().int().positive().optional() }).strict(),
  run: async () => ({ output: "", isError: false }),
};

describe("toolSpec", () => {
  it("derives an object JSON schema from the zod schema", () => {
    const spec = toolSpec(tool);
    expect(spec.name).toBe("read");
    expect(spec.input_schema).toMatchObject({
      type: "object",
      properties: { path: { type: "string", description: "file path" }, limit: { type: "integer" } },
      required: ["path"],
    });
    expect(spec.input_schema).not.toHaveProperty("$schema");
  });
});

describe("validateInput", () => {
  it.each([
    [{ path: "a" }, true, ""],
    [{}, false, "path:"],
    [{ path: 3 }, false, "path:"],
    [{ path: "a", limit: -1 }, false, "limit:"],
    [{ path: "a", extra: 1 }, false, "extra"],
    ["nope", false, "input:"],
  ])("%j → ok=%s", (input, ok, mention) => {
    const result = validateInput(tool, input);
    expect(result.ok).toBe(ok);
    if (!result.ok) expect(result.message).toContain(mention);
  });
});
