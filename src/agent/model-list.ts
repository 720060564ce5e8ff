/**
 * At start, the models crewbot is configured to use are compared with the endpoint's own list
 * (`GET /v1/models`, all pages). A model the endpoint does not list is logged once by name: a
 * typo in an agent's `model` would otherwise show only when its first job fails. Never fatal:
 * a compatible endpoint without the list, or one that is down at start, is fine. A cloud provider
 * without a list (providers.ts) is not asked: one line says the check is skipped.
 */
import Anthropic from "@anthropic-ai/sdk";
import { modelFamily } from "./pricing.js";
import { isMapped } from "./model-ids.js";
import { credentialsProblem, providerOf } from "./provider.js";
import { PROVIDER_VARIABLE, providerRow } from "./providers.js";

export interface ModelCheckLog {
  info(message: string): void;
  warn(message: string): void;
}

/** Every id the endpoint lists, or undefined when it has no list (or cannot be asked now). */
export async function listModels(client: Anthropic): Promise<{ ids: string[] } | { error: string }> {
  try {
    const ids: string[] = [];
    for await (const model of client.models.list({ limit: 1000 })) ids.push(model.id);
    return { ids };
  } catch (err) {
    if (err instanceof Anthropic.APIError && err.status !== undefined) return { error: `${err.status} ${err.apiMessage ?? err.message}` };
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Whether `model` is one the endpoint lists: the id itself, or a family alias of a listed dated
 * id (`claude-sonnet-4-5` for `claude-sonnet-4-5-20250929`).
 */
export function isListed(model: string, ids: readonly string[]): boolean {
  const wanted = model.trim().toLowerCase();
  return ids.some((id) => id.toLowerCase() === wanted || modelFamily(id) === modelFamily(wanted));
}

/** Names already logged as unknown in this process: each is told once. */
const told = new Set<string>();

/** Compares `models` with the endpoint's list and logs each unknown one once; returns those. */
export async function checkConfiguredModels(client: Anthropic, models: readonly string[], log: ModelCheckLog): Promise<string[]> {
  const provider = providerOf(client);
  const row = providerRow(provider);
  if (provider !== "anthropic" && !row.listsModels) {
    log.info(`${PROVIDER_VARIABLE}=${provider} has no model list: configured models not checked`);
    const problem = await credentialsProblem(client);
    if (problem) log.warn(`${PROVIDER_VARIABLE}=${provider} finds no credentials (${problem}): every model request will fail until it does`);
    if (!row.ownIds) return [];
    // Bedrock knows no model by Anthropic's name: one without an id in the table fails every job that uses it.
    const unmapped = [...new Set(models.map((m) => m.trim()).filter(Boolean))].filter((m) => !isMapped(provider, m) && !/^[a-z]+\.|^arn:/.test(m));
    for (const model of unmapped) {
      if (told.has(`${provider}:${model}`)) continue;
      told.add(`${provider}:${model}`);
      log.warn(`model "${model}" has no ${provider} id (the bundled table or CREWBOT_MODEL_IDS): it is sent as written, and jobs using it will fail`);
    }
    return unmapped;
  }
  const listed = await listModels(client);
  if ("error" in listed) {
    log.info(`the model endpoint gave no model list (${listed.error}); configured models not checked`);
    return [];
  }
  const unknown = [...new Set(models.map((m) => m.trim()).filter(Boolean))].filter((m) => !isListed(m, listed.ids));
  for (const model of unknown) {
    if (told.has(model)) continue;
    told.add(model);
    log.warn(`model "${model}" is configured but the model endpoint does not list it; jobs using it will fail`);
  }
  return unknown;
}
