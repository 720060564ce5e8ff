/**
 * The model ids each provider is asked for. crewbot's configuration names models as Anthropic does
 * (`claude-sonnet-4-5`); Bedrock and Vertex AI name them their own way, so the id is mapped at the
 * last moment, in the model client (provider.ts), and everything else (prices, budgets, the
 * context window, transcripts) keeps Anthropic's name.
 *
 * The bundled table follows Anthropic's pages "Claude on Amazon Bedrock" and "Claude on Vertex
 * AI". On Bedrock the models from Claude 4 on are invoked through an inference profile, not their
 * base id (a base id is refused for on-demand use); the `global.` profile is used where one
 * exists, since it works from every commercial region. Microsoft Foundry serves a deployment
 * under the model's own name by default, so it needs no column. The operator's file
 * (`CREWBOT_MODEL_IDS`, model-ids-file.ts) adds rows or overrides cells, e.g. a `us.` profile, an
 * application inference profile's ARN, or a Foundry deployment's own name.
 *
 * An id the table does not know is sent as written: a configured `anthropic.claude-…-v1:0` or a
 * Vertex `…@2025…` id reaches the provider unchanged.
 */
import { modelFamily } from "./pricing.js";
import { OperatorRows } from "./operator-rows.js";

/**
 * The providers whose ids may differ from Anthropic's: the table's columns. The provider table
 * (providers.ts) is typed to have exactly these rows besides `anthropic`.
 */
export const MAPPED_PROVIDERS = ["bedrock", "vertex", "foundry"] as const;
export type MappedProvider = (typeof MAPPED_PROVIDERS)[number];

export type ModelIdRow = Partial<Record<MappedProvider, string>>;

/**
 * Anthropic's family id → the provider's id. `regionalPremium`: Sonnet 4.5 and the models after it
 * cost 10% more through a regional endpoint (a Vertex region other than `global`, a Bedrock
 * profile other than `global.`) than through the global one (pricing.ts applies it).
 */
export const MODEL_IDS: Record<string, ModelIdRow & { regionalPremium?: true }> = {
  "claude-opus-4-6": { bedrock: "global.anthropic.claude-opus-4-6-v1", vertex: "claude-opus-4-6", regionalPremium: true },
  "claude-sonnet-4-6": { bedrock: "global.anthropic.claude-sonnet-4-6", vertex: "claude-sonnet-4-6", regionalPremium: true },
  "claude-opus-4-5": { bedrock: "global.anthropic.claude-opus-4-5-20251101-v1:0", vertex: "claude-opus-4-5@20251101", regionalPremium: true },
  "claude-sonnet-4-5": { bedrock: "global.anthropic.claude-sonnet-4-5-20250929-v1:0", vertex: "claude-sonnet-4-5@20250929", regionalPremium: true },
  "claude-haiku-4-5": { bedrock: "global.anthropic.claude-haiku-4-5-20251001-v1:0", vertex: "claude-haiku-4-5@20251001", regionalPremium: true },
  "claude-opus-4-1": { bedrock: "us.anthropic.claude-opus-4-1-20250805-v1:0", vertex: "claude-opus-4-1@20250805" },
  "claude-opus-4": { bedrock: "us.anthropic.claude-opus-4-20250514-v1:0", vertex: "claude-opus-4@20250514" },
  "claude-opus-4-0": { bedrock: "us.anthropic.claude-opus-4-20250514-v1:0", vertex: "claude-opus-4@20250514" },
  "claude-sonnet-4": { bedrock: "global.anthropic.claude-sonnet-4-20250514-v1:0", vertex: "claude-sonnet-4@20250514" },
  "claude-sonnet-4-0": { bedrock: "global.anthropic.claude-sonnet-4-20250514-v1:0", vertex: "claude-sonnet-4@20250514" },
  "claude-3-7-sonnet": { bedrock: "us.anthropic.claude-3-7-sonnet-20250219-v1:0", vertex: "claude-3-7-sonnet@20250219" },
  "claude-3-5-haiku": { bedrock: "us.anthropic.claude-3-5-haiku-20241022-v1:0", vertex: "claude-3-5-haiku@20241022" },
  "claude-3-haiku": { bedrock: "anthropic.claude-3-haiku-20240307-v1:0", vertex: "claude-3-haiku@20240307" },
};

/** The operator's rows (`CREWBOT_MODEL_IDS`), by model id as written there. */
const operatorIds = new OperatorRows<ModelIdRow>();

/** Installs the operator's rows (process-wide, set once at start); returns the previous ones so tests can put them back. */
export function setOperatorModelIds(rows: Record<string, ModelIdRow>): Map<string, ModelIdRow> {
  return operatorIds.set(rows);
}

export function restoreOperatorModelIds(previous: Map<string, ModelIdRow>): void {
  operatorIds.restore(previous);
}

/**
 * The id to send `provider` for `model`: the operator's cell for the exact id, then for its family,
 * then the bundled one; else `model` itself. A dated id (`claude-sonnet-4-5-20250929`) maps as its
 * family: the table's ids are dated already.
 */
export function providerModelId(provider: MappedProvider, model: string): string {
  const family = modelFamily(model);
  return operatorIds.get(model)?.[provider] ?? operatorIds.get(family)?.[provider] ?? MODEL_IDS[family]?.[provider] ?? model;
}

/** True when `provider` has an id for `model` other than the model's own (the table or the operator's file). */
export function isMapped(provider: MappedProvider, model: string): boolean {
  return providerModelId(provider, model) !== model;
}

/** Whether `model` costs more through a regional endpoint than through the global one. */
export const hasRegionalPremium = (model: string): boolean => MODEL_IDS[modelFamily(model)]?.regionalPremium === true;
