/**
 * `CREWBOT_MODEL_IDS`: the operator's model ids per provider, a YAML (or JSON) file mapping a model
 * id as crewbot's configuration names it to the id each provider is asked for. Added to the bundled
 * table (model-ids.ts), overriding it cell by cell. Read once at start; a bad file stops the app
 * naming the file and the key, as `CREWBOT_PRICES` does.
 *
 *   claude-sonnet-4-5: { bedrock: "eu.anthropic.claude-sonnet-4-5-20250929-v1:0" }
 *   claude-opus-5:     { bedrock: "arn:aws:bedrock:…:application-inference-profile/abc", vertex: "claude-opus-5", foundry: "opus-prod" }
 */
import { z } from "zod";
import { MAPPED_PROVIDERS, type ModelIdRow } from "./model-ids.js";
import { parseOperatorFile, readOperatorFile } from "./operator-file.js";

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

const KIND = { variable: MODEL_IDS_VARIABLE, schema: File, error: ModelIdsFileError, unknownKey: `unknown provider (known: ${COLUMNS.join(", ")})` };

/** Parses the file's text; every problem names `file` and the key (`model.provider`). */
export function parseModelIds(text: string, file: string): Record<string, ModelIdRow> {
  return parseOperatorFile(text, file, KIND);
}

/** The operator's ids from `CREWBOT_MODEL_IDS`, or undefined when it is unset. */
export function loadModelIds(env: NodeJS.ProcessEnv): Record<string, ModelIdRow> | undefined {
  const read = readOperatorFile(env[MODEL_IDS_VARIABLE], KIND);
  return read && parseModelIds(read.text, read.file);
}
