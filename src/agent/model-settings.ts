/**
 * The operator's model settings, read once at start (a bad value stops the app naming it):
 * `CREWBOT_MODEL_RETRY_MINUTES` for the retry policy of every model client, `CREWBOT_PRICES`
 * for the price table. Then, in the background, the configured models are checked against the
 * endpoint's list (model-list.ts).
 */
import type Anthropic from "@anthropic-ai/sdk";
import { checkConfiguredModels, type ModelCheckLog } from "./model-list.js";
import { loadPrices } from "./prices-file.js";
import { setOperatorPrices } from "./pricing.js";
import { modelRetryMinutes, type ModelRetryPolicy } from "./retry.js";

export interface ModelSettings {
  /** For `createClient({ retry })`. */
  retry: Partial<ModelRetryPolicy>;
  /** How many models the operator's price file named (0 without one). */
  pricedModels: number;
}

/** Parses both variables and installs the operator's prices; throws on a bad value or file. */
export function applyModelSettings(env: NodeJS.ProcessEnv): ModelSettings {
  const retry = { maxMs: modelRetryMinutes(env) * 60_000 };
  const prices = loadPrices(env);
  if (prices) setOperatorPrices(prices);
  return { retry, pricedModels: prices ? Object.keys(prices).length : 0 };
}

/** Checks the configured models in the background; a failure of the check itself is only logged. */
export function checkModelsInBackground(client: () => Anthropic, models: () => Promise<string[]>, log: ModelCheckLog): Promise<void> {
  return (async () => {
    try {
      await checkConfiguredModels(client(), await models(), log);
    } catch (err) {
      log.warn(`configured models not checked: ${err instanceof Error ? err.message : String(err)}`);
    }
  })();
}
