import { z } from "zod";
import type { Tool } from "./types.js";

/** The tool as the Messages API wants it; the JSON schema comes from the zod schema, so they never drift. */
export function toolSpec(tool: Tool): { name: string; description: string; input_schema: Record<string, unknown> } {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.schema, { io: "input" }) as Record<string, unknown>;
  return { name: tool.name, description: tool.description, input_schema: { type: "object", ...schema } };
}

export type Validated<I> = { ok: true; value: I } | { ok: false; message: string };

/** Checks model-sent arguments; the message is for the model, so it names each bad field. */
export function validateInput<I>(tool: Tool<I>, input: unknown): Validated<I> {
  const parsed = tool.schema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join(".") : "input";
    return `${where}: ${issue.message}`;
  });
  return { ok: false, message: `Invalid arguments for ${tool.name}: ${problems.join("; ")}` };
}
