/**
 * The operator's model settings, read once at start (a bad value stops the app naming it):
 * `CREWBOT_MODEL_PROVIDER` and its variables (providers.ts), `CREWBOT_MODEL_RETRY_MINUTES` for the
 * retry policy of every model client, `CREWBOT_PRICES` for the price table, `CREWBOT_MODEL_IDS`
 * for the providers' model ids, `CREWBOT_FIRST_LOOK_MODEL` for a review's first look. Then, in
 * the background, the configured models are checked against the endpoint's list (model-list.ts).
 */
import type Anthropic from "@anthropic-ai/sdk";
import { checkConfiguredModels, type ModelCheckLog } from "./model-list.js";
import { loadModelIds } from "./model-ids-file.js";
import { setOperatorModelIds } from "./model-ids.js";
import { loadPrices } from "./prices-file.js";
import { setOperatorPrices, setProviderPricing } from "./pricing.js";
import { configuredProvider, priceFactor, type ProviderName } from "./providers.js";
import { modelRetryMinutes, type ModelRetryPolicy } from "./retry.js";

export interface ModelSettings {
  /** `CREWBOT_MODEL_PROVIDER`, its variables checked. */
  provider: ProviderName;
  /** For `createClient({ retry })`. */
  retry: Partial<ModelRetryPolicy>;
  /** How many models the operator's price file named (0 without one). */
  pricedModels: number;
  /** The cheaper model a review's first look runs on (review/first-look.ts); none: no first look. */
  firstLookModel?: string;
}

/** The same shape as a repository's model ids (config/schema.ts): what the API can be asked for. */
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,99}$/;

function firstLookModel(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.CREWBOT_FIRST_LOOK_MODEL?.trim();
  if (!value) return undefined;
  if (!MODEL_ID.test(value)) throw new Error(`CREWBOT_FIRST_LOOK_MODEL must be a model id such as claude-haiku-4-5; got "${value.slice(0, 40)}"`);
  return value;
}

/** Parses the variables and installs the operator's prices; throws on a bad value or file. */
export function applyModelSettings(env: NodeJS.ProcessEnv): ModelSettings {
  const provider = configuredProvider(env);
  const retry = { maxMs: modelRetryMinutes(env) * 60_000 };
  const prices = loadPrices(env);
  const ids = loadModelIds(env);
  const firstLook = firstLookModel(env);
  // Installed only once every value is known good: a bad one stops the app before anything is half set.
  if (prices) setOperatorPrices(prices);
  if (ids) setOperatorModelIds(ids);
  setProviderPricing(priceFactor(env));
  return { provider, retry, pricedModels: prices ? Object.keys(prices).length : 0, ...(firstLook ? { firstLookModel: firstLook } : {}) };
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
