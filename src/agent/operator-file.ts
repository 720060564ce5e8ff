/**
 * The operator's own files, each named by an environment variable (prices, model ids, MCP
 * servers): YAML or JSON (YAML reads both), read once at start. A bad one stops the app with one
 * line naming the variable, the file and the key.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import type { z } from "zod";

export interface OperatorFileKind<T> {
  variable: string;
  schema: z.ZodType<T>;
  /** The error each problem is thrown as. */
  error: new (message: string) => Error;
  /** What follows a misspelt key's name: `unknown key (known: …)`. */
  unknownKey: string;
}

/** The text of the file the variable's `value` names, or undefined when it is unset (blank counts as unset). */
export function readOperatorFile(value: string | undefined, kind: Pick<OperatorFileKind<unknown>, "variable" | "error">): { file: string; text: string } | undefined {
  const file = value?.trim();
  if (!file) return undefined;
  try {
    return { file, text: readFileSync(file, "utf8") };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new kind.error(`${kind.variable} (${file}): cannot be read${code ? ` (${code})` : ""}`);
  }
}

/** `text` parsed and checked by the kind's schema; every problem names the file and the key. */
export function parseOperatorFile<T>(text: string, file: string, kind: OperatorFileKind<T>): T {
  const fail = (message: string): never => {
    throw new kind.error(`${kind.variable} (${file}): ${message}`);
  };
  let data: unknown;
  try {
    data = parse(text);
  } catch (err) {
    fail(`not valid YAML or JSON: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
  }
  const parsed = kind.schema.safeParse(data ?? {});
  if (parsed.success) return parsed.data;
  // A misspelt key says more than the missing one it was meant to be; zod names it in the issue, not the path.
  const issues = parsed.error.issues;
  const issue = issues.find((i) => i.code === "unrecognized_keys") ?? issues[0]!;
  const key = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") return fail(`${key ? `${key}.` : ""}${issue.keys.join(", ")}: ${kind.unknownKey}`);
  // A bad record key (a model id, a server's name) carries its own message one level down.
  const message = issue.code === "invalid_key" ? (issue.issues[0]?.message ?? issue.message) : issue.message;
  return fail(`${key || "(top level)"}: ${message}`);
}
