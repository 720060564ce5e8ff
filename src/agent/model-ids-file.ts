/**
 * `CREWBOT_MODEL_IDS`: the operator's model ids per provider, a YAML (or JSON) file mapping a model
 * id as crewbot's configuration names it to the id each provider is asked for. Added to the bundled
 * table (model-ids.ts), overriding it cell by cell. Read once at start; a bad file stops the app
 * naming the file and the key, as `CREWBOT_PRICES` does.
 *
 *   claude-sonnet-4-5: { bedrock: "eu.anthropic.claude-sonnet-4-5-20250929-v1:0" }
 *   claude-opus-5:     { bedrock: "arn:aws:bedrock:…:application-inference-profile/abc", vertex: "claude-opus-5", foundry: "opus-prod" }
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { z } from "zod";
import { MAPPED_PROVIDERS, type ModelIdRow } from "./model-ids.js";

export const MODEL_IDS_VARIABLE = "CREWBOT_MODEL_IDS";

const COLUMNS = MAPPED_PROVIDERS;

const id = z
  .string({ error: "must be the provider's model id (a string)" })
  .trim()
  .min(1, { error: "must not be empty" })
  .max(2048, { error: "is too long" })
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:@/+-]*$/, { error: "is not a model id (letters, digits and . _ : @ / + -)" });

const Row = z.strictObject(Object.fromEntries(COLUMNS.map((c) => [c, id.optional()])) as Record<(typeof COLUMNS)[number], z.ZodOptional<typeof id>>, {
  error: `must be a mapping of providers (${COLUMNS.join(", ")}) to model ids`,
});

const File = z.record(z.string().trim().min(1, { error: "a model id must not be empty" }), Row, {
  error: "must be a mapping of model ids to the providers' ids",
});

export class ModelIdsFileError extends Error {
  override name = "ModelIdsFileError";
}

/** Parses the file's text; every problem names `file` and the key (`model.provider`). */
export function parseModelIds(text: string, file: string): Record<string, ModelIdRow> {
  let data: unknown;
  try {
    data = parse(text);
  } catch (err) {
    throw new ModelIdsFileError(`${MODEL_IDS_VARIABLE} (${file}): not valid YAML or JSON: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
  }
  const parsed = File.safeParse(data ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const issue = issues.find((i) => i.code === "unrecognized_keys") ?? issues[0]!;
    const key = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      throw new ModelIdsFileError(`${MODEL_IDS_VARIABLE} (${file}): ${key ? `${key}.` : ""}${issue.keys.join(", ")}: unknown provider (known: ${COLUMNS.join(", ")})`);
    }
    throw new ModelIdsFileError(`${MODEL_IDS_VARIABLE} (${file}): ${key || "(top level)"}: ${issue.message}`);
  }
  return parsed.data;
}

/** The operator's ids from `CREWBOT_MODEL_IDS`, or undefined when it is unset. */
export function loadModelIds(env: NodeJS.ProcessEnv): Record<string, ModelIdRow> | undefined {
  const file = env[MODEL_IDS_VARIABLE]?.trim();
  if (!file) return undefined;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ModelIdsFileError(`${MODEL_IDS_VARIABLE} (${file}): cannot be read${code ? ` (${code})` : ""}`);
  }
  return parseModelIds(text, file);
}
