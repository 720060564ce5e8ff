/**
 * `CREWBOT_PRICES`: the operator's model prices, a YAML (or JSON, which YAML reads too) file
 * mapping model ids to USD per million tokens. Added to the built-in table, overriding it for
 * the same id. Read once at start; a bad file stops the app naming the file and the key, since
 * a wrong price would let a budget fail open.
 *
 *   claude-sonnet-5-5: { input: 2, output: 10 }                      # cache prices default to 1.25× / 0.1× input
 *   my-proxy-model:    { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { z } from "zod";
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

/** Parses the file's text; every problem names `file` and the key (`model.field`). */
export function parsePrices(text: string, file: string): Record<string, Price> {
  let data: unknown;
  try {
    data = parse(text);
  } catch (err) {
    throw new PricesFileError(`${PRICES_VARIABLE} (${file}): not valid YAML or JSON: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
  }
  const parsed = File.safeParse(data ?? {});
  if (!parsed.success) {
    // A misspelt key says more than the missing one it was meant to be.
    const issues = parsed.error.issues;
    const issue = issues.find((i) => i.code === "unrecognized_keys") ?? issues[0]!;
    const key = issue.path.map(String).join(".");
    // zod names an unknown key in the message, not the path.
    const unknown = issue.code === "unrecognized_keys" ? `${key ? `${key}.` : ""}${issue.keys.join(", ")}` : undefined;
    const where = unknown ?? (key || "(top level)");
    const problem = issue.code === "unrecognized_keys" ? "unknown key (known: input, output, cacheWrite, cacheRead)" : issue.message;
    throw new PricesFileError(`${PRICES_VARIABLE} (${file}): ${where}: ${problem}`);
  }
  return Object.fromEntries(
    Object.entries(parsed.data).map(([id, p]) => [
      id,
      { input: p.input, output: p.output, cacheWrite: p.cacheWrite ?? p.input * 1.25, cacheRead: p.cacheRead ?? p.input / 10 },
    ]),
  );
}

/** The operator's prices from `CREWBOT_PRICES`, or undefined when it is unset. */
export function loadPrices(env: NodeJS.ProcessEnv): Record<string, Price> | undefined {
  const file = env[PRICES_VARIABLE]?.trim();
  if (!file) return undefined;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new PricesFileError(`${PRICES_VARIABLE} (${file}): cannot be read${code ? ` (${code})` : ""}`);
  }
  return parsePrices(text, file);
}
