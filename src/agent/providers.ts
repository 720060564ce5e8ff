/**
 * The model providers crewbot reaches Claude through (`CREWBOT_MODEL_PROVIDER`), each through
 * Anthropic's own SDK client for it. One row per provider: what it needs from the environment
 * (a missing variable stops the app at start, named), whether it has a model list, the API
 * version its wire format wants, and how its client is made. provider.ts adds what every client
 * gets (redaction, model ids, our retries).
 */
import Anthropic, { type ClientOptions as CoreOptions } from "@anthropic-ai/sdk";
import { AnthropicBedrock } from "@anthropic-ai/bedrock-sdk";
import { AnthropicFoundry } from "@anthropic-ai/foundry-sdk";
import { AnthropicVertex } from "@anthropic-ai/vertex-sdk";
import { hasRegionalPremium, providerModelId, type MappedProvider } from "./model-ids.js";
import { awsChain, entraToken, googleAuth, probe } from "./provider-credentials.js";

/** The options every provider's client is made with. */
export type CommonOptions = Pick<CoreOptions, "maxRetries" | "fetch" | "middleware" | "defaultHeaders">;

export const PROVIDER_VARIABLE = "CREWBOT_MODEL_PROVIDER";

/** What each provider's client is made with: the options every client shares, and the environment. */
export interface MakeClient {
  env: NodeJS.ProcessEnv;
  /** `fetch`, `middleware`, `maxRetries: 0`, … (provider.ts). */
  core: CommonOptions;
  /** The Anthropic key and URL given to createClient explicitly (the first-party provider only). */
  apiKey?: string;
  baseURL?: string;
}

interface Provider {
  /** The variables it cannot start without: each entry is one variable, or alternatives of which one must be set. */
  required: ReadonlyArray<string | readonly string[]>;
  /** The API has `GET /v1/models`, so configured models can be checked at start (model-list.ts). */
  listsModels: boolean;
  /** Its ids are never Anthropic's own: a model without one in the table is refused (the start-up check warns). */
  ownIds?: true;
  /** The `anthropic_version` its wire format takes in the body, instead of the SDK's header. */
  bodyVersion?: string;
  /** Whether a model id sent to this provider goes through a regional endpoint (a price premium: model-ids.ts). */
  regional?: (env: NodeJS.ProcessEnv, providerModel: string) => boolean;
  /** Why its credentials chain yields none, or undefined when it does (asked once at start). */
  credentialsProblem?: (env: NodeJS.ProcessEnv) => Promise<string | undefined>;
  make(args: MakeClient): unknown;
}

/** A set, non-blank variable; a blank one counts as unset (as in a `.env` with `KEY=`). */
export const read = (env: NodeJS.ProcessEnv, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value ? value : undefined;
};

export const ANTHROPIC_KEY = "ANTHROPIC_API_KEY";

/** The SDK's type of its chain option: its `@smithy/types` is an older major than the credential providers', the shape the same. */
type AwsChainResolver = NonNullable<NonNullable<ConstructorParameters<typeof AnthropicBedrock>[0]>["providerChainResolver"]>;

const hasAwsKeys = (env: NodeJS.ProcessEnv) => read(env, "AWS_ACCESS_KEY_ID") !== undefined && read(env, "AWS_SECRET_ACCESS_KEY") !== undefined;

/**
 * The rows. Credentials come from each cloud's own chain; the variables read here are passed to
 * the SDK explicitly (not left to its own `process.env` reads), so the environment a test or the
 * CLI gives is the one used.
 */
export const PROVIDERS = {
  anthropic: {
    // Checked by createClient, not at start: the app may start without model access (DESIGN §5).
    required: [],
    listsModels: true,
    make: ({ env, core, apiKey, baseURL }) => {
      const key = apiKey || read(env, ANTHROPIC_KEY);
      // Without a key the SDK would fall back to its own credential chain (profiles, config files), which an operator did not ask for.
      if (!key) throw new Error(`${ANTHROPIC_KEY} is not set: crewbot cannot reach a model`);
      return new Anthropic({ ...core, apiKey: key, baseURL: baseURL || read(env, "ANTHROPIC_BASE_URL") });
    },
  },
  bedrock: {
    required: ["AWS_REGION"],
    listsModels: false,
    ownIds: true,
    bodyVersion: "bedrock-2023-05-31",
    regional: (_env, id) => !id.startsWith("global."),
    credentialsProblem: async (env) => (hasAwsKeys(env) || read(env, "AWS_BEARER_TOKEN_BEDROCK") ? undefined : probe(async () => (await awsChain())())),
    make: ({ env, core }) => {
      const baseURL = read(env, "ANTHROPIC_BEDROCK_BASE_URL");
      const options = {
        ...core,
        awsRegion: read(env, "AWS_REGION"),
        // A Bedrock API key when given; `null` keeps the SDK from reading one we were not given.
        apiKey: read(env, "AWS_BEARER_TOKEN_BEDROCK") ?? null,
        ...(baseURL ? { baseURL } : {}),
      };
      // Static keys when the environment has both; else AWS's default chain, one per process (provider-credentials.ts).
      if (!hasAwsKeys(env)) return new AnthropicBedrock({ ...options, providerChainResolver: awsChain as unknown as AwsChainResolver });
      return new AnthropicBedrock({ ...options, awsAccessKey: read(env, "AWS_ACCESS_KEY_ID")!, awsSecretKey: read(env, "AWS_SECRET_ACCESS_KEY")!, awsSessionToken: read(env, "AWS_SESSION_TOKEN") ?? null });
    },
  },
  vertex: {
    required: ["CLOUD_ML_REGION", "ANTHROPIC_VERTEX_PROJECT_ID"],
    listsModels: false,
    bodyVersion: "vertex-2023-10-16",
    regional: (env) => read(env, "CLOUD_ML_REGION") !== "global",
    credentialsProblem: (env) => probe(() => googleAuth(read(env, "GOOGLE_APPLICATION_CREDENTIALS")).getAccessToken()),
    make: ({ env, core }) => {
      const baseURL = read(env, "ANTHROPIC_VERTEX_BASE_URL");
      return new AnthropicVertex({
        ...core,
        region: read(env, "CLOUD_ML_REGION"),
        projectId: read(env, "ANTHROPIC_VERTEX_PROJECT_ID"),
        googleAuth: googleAuth(read(env, "GOOGLE_APPLICATION_CREDENTIALS")),
        ...(baseURL ? { baseURL } : {}),
      });
    },
  },
  foundry: {
    required: [["ANTHROPIC_FOUNDRY_RESOURCE", "ANTHROPIC_FOUNDRY_BASE_URL"]],
    listsModels: false,
    credentialsProblem: async (env) => (read(env, "ANTHROPIC_FOUNDRY_API_KEY") ? undefined : probe(entraToken)),
    make: ({ env, core }) => {
      const baseURL = read(env, "ANTHROPIC_FOUNDRY_BASE_URL");
      // The SDK refuses both: the base URL is the resource's full address, so it wins.
      const where = baseURL ? { baseURL, resource: null } : { resource: read(env, "ANTHROPIC_FOUNDRY_RESOURCE") };
      const apiKey = read(env, "ANTHROPIC_FOUNDRY_API_KEY");
      return new AnthropicFoundry({ ...core, ...where, ...(apiKey ? { apiKey } : { azureADTokenProvider: entraToken }) });
    },
  },
} satisfies Record<"anthropic" | MappedProvider, Provider>;

export type ProviderName = keyof typeof PROVIDERS;
export const PROVIDER_NAMES = Object.keys(PROVIDERS) as ProviderName[];

export const providerRow = (name: ProviderName): Provider => PROVIDERS[name];

/** `CREWBOT_MODEL_PROVIDER` (default `anthropic`); an unknown name stops the app naming the variable and the known ones. */
export function providerName(env: NodeJS.ProcessEnv): ProviderName {
  const raw = read(env, PROVIDER_VARIABLE);
  if (raw === undefined) return "anthropic";
  const name = raw.toLowerCase();
  if ((PROVIDER_NAMES as string[]).includes(name)) return name as ProviderName;
  throw new Error(`${PROVIDER_VARIABLE} must be one of ${PROVIDER_NAMES.join(", ")}; got "${raw.slice(0, 40)}"`);
}

/**
 * The configured provider, its required variables checked: a missing one stops the app naming it
 * (`CREWBOT_MODEL_PROVIDER=vertex needs ANTHROPIC_VERTEX_PROJECT_ID …`).
 */
export function configuredProvider(env: NodeJS.ProcessEnv): ProviderName {
  const name = providerName(env);
  for (const need of PROVIDERS[name].required) {
    const names = typeof need === "string" ? [need] : need;
    if (names.some((n) => read(env, n) !== undefined)) continue;
    const what = names.length === 1 ? names[0] : `one of ${names.join(" or ")}`;
    throw new Error(`${PROVIDER_VARIABLE}=${name} needs ${what}, which is not set`);
  }
  return name;
}

/** What a regional endpoint costs over the global one, for the models that have the premium (model-ids.ts). */
export const REGIONAL_PREMIUM = 1.1;

/** The configured provider's price factor by model, for pricing.ts's `setProviderPricing`. */
export function priceFactor(env: NodeJS.ProcessEnv): (model: string) => number {
  const name = providerName(env);
  const regional = providerRow(name).regional;
  if (name === "anthropic" || !regional) return () => 1;
  return (model) => (hasRegionalPremium(model) && regional(env, providerModelId(name, model)) ? REGIONAL_PREMIUM : 1);
}
