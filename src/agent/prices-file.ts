/**
 * `CREWBOT_PRICES`: the operator's model prices, a YAML (or JSON, which YAML reads too) file
 * mapping model ids to USD per million tokens. Added to the built-in table, overriding it for
 * the same id. Read once at start; a bad file stops the app naming the file and the key, since
 * a wrong price would let a budget fail open.
 *
 *   claude-sonnet-5-5: { input: 2, output: 10 }                      # cache prices default to 1.25× / 0.1× input
 *   my-proxy-model:    { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }
 */
import { z } from "zod";
import { parseOperatorFile, readOperatorFile } from "./operator-file.js";
import type { Price } from "./pricing.js";

export const PRICES_VARIABLE = "CREWBOT_PRICES";

const rate = z.number({ error: "must be a number of USD per million tokens" }).finite().nonnegative({ error: "must not be negative" });

const Entry = z.strictObject(
  { input: rate, output: rate, cacheWrite: rate.optional(), cacheRead: rate.optional() },
  { error: "must be a mapping with input and output (and optionally cacheWrite, cacheRead), USD per million tokens" },
);

const File = z.record(z.string().trim().min(1, { error: "a model id must not be empty" }), Entry, {
  error: "must be a mapping of model ids to prices",
});

export class PricesFileError extends Error {
  override name = "PricesFileError";
}

const KIND = { variable: PRICES_VARIABLE, schema: File, error: PricesFileError, unknownKey: "unknown key (known: input, output, cacheWrite, cacheRead)" };

/** Parses the file's text; every problem names `file` and the key (`model.field`). */
export function parsePrices(text: string, file: string): Record<string, Price> {
  return Object.fromEntries(
    Object.entries(parseOperatorFile(text, file, KIND)).map(([id, p]) => [
      id,
      { input: p.input, output: p.output, cacheWrite: p.cacheWrite ?? p.input * 1.25, cacheRead: p.cacheRead ?? p.input / 10 },
    ]),
  );
}

/** The operator's prices from `CREWBOT_PRICES`, or undefined when it is unset. */
export function loadPrices(env: NodeJS.ProcessEnv): Record<string, Price> | undefined {
  const read = readOperatorFile(env[PRICES_VARIABLE], KIND);
  return read && parsePrices(read.text, read.file);
}
