import Anthropic, { type ClientOptions as CoreOptions, type Middleware } from "@anthropic-ai/sdk";
import { redactJson, secretsFromEnv } from "../secrets/redact.js";
import { setRetryPolicy } from "./model-call.js";
import { providerModelId, type MappedProvider } from "./model-ids.js";
import { ANTHROPIC_KEY, configuredProvider, providerName, providerRow, read, type ProviderName } from "./providers.js";
import { apiMessageOf, minutes, ModelRetriesExhausted, modelRetryPolicy, MODEL_RETRY_VARIABLE, statusOf, type ModelRetryPolicy } from "./retry.js";

export interface ClientOptions {
  /** Default: `ANTHROPIC_API_KEY` of `env` (the `anthropic` provider only). */
  apiKey?: string;
  /** Default: `ANTHROPIC_BASE_URL` of `env` (any Anthropic-compatible endpoint), else the SDK's (the `anthropic` provider only). */
  baseURL?: string;
  env?: NodeJS.ProcessEnv;
  /**
   * Our retries of 429/5xx/529, stream errors and dropped connections (retry.ts), for every
   * request made with the client. The SDK's own retries are off: one policy, one clock.
   */
  retry?: Partial<ModelRetryPolicy>;
  /** Secrets beyond the environment's own (the MCP servers' header values), redacted from every request body too. */
  secrets?: readonly string[];
}

/**
 * True when the operator gave model access: `ANTHROPIC_API_KEY` for the first-party API (DESIGN
 * §5), else a configured cloud provider (its credentials come from the cloud's own chain:
 * provider-credentials.ts). `env` is injectable for tests and the CLI.
 */
export function hasModelAccess(env: NodeJS.ProcessEnv = process.env): boolean {
  return providerName(env) !== "anthropic" || read(env, ANTHROPIC_KEY) !== undefined;
}

/** Which provider each client made here talks to, and with which environment: the start-up check asks. */
const providers = new WeakMap<object, { name: ProviderName; env: NodeJS.ProcessEnv }>();

export const providerOf = (client: object): ProviderName => providers.get(client)?.name ?? "anthropic";

/** Why the client's provider finds no credentials in its cloud's chain, or undefined when it does (or has no chain). */
export async function credentialsProblem(client: object): Promise<string | undefined> {
  const made = providers.get(client);
  return made ? providerRow(made.name).credentialsProblem?.(made.env) : undefined;
}

/**
 * The one place a model client is made, for the provider `CREWBOT_MODEL_PROVIDER` names
 * (providers.ts; a missing variable throws naming it). Every request body leaves redacted (see
 * `redactingFetch`); on a cloud provider the body is also redacted, and its model id mapped
 * (model-ids.ts), before the provider's SDK reshapes and signs it (`canonicalMiddleware`).
 *
 * The clients of Bedrock and Vertex AI are not `Anthropic` but its base with `messages`: the type
 * says `Anthropic` because `messages` is all crewbot uses, but for `models.list`, which model-list.ts
 * calls only on a provider with a list.
 */
export function createClient(options: ClientOptions = {}): Anthropic {
  const env = options.env ?? process.env;
  const name = configuredProvider(env);
  const row = providerRow(name);
  const secrets = [options.apiKey, ...secretsFromEnv(env), ...(options.secrets ?? [])];
  const core: CoreOptions = {
    maxRetries: 0,
    fetch: redactingFetch(secrets),
    ...(name !== "anthropic" ? { middleware: [canonicalMiddleware(name, secrets)] } : {}),
    // Bedrock and Vertex take the API version in the body (their SDKs move the header there), and their own value, not the first-party one.
    ...(row.bodyVersion ? { defaultHeaders: { "anthropic-version": row.bodyVersion } } : {}),
  };
  const client = row.make({ env, core, ...(options.apiKey ? { apiKey: options.apiKey } : {}), ...(options.baseURL ? { baseURL: options.baseURL } : {}) }) as Anthropic;
  providers.set(client, { name, env });
  return setRetryPolicy(client, modelRetryPolicy(options.retry));
}

/**
 * Runs before the provider's SDK turns the request into its wire shape (and, on Bedrock, signs it):
 * the body is redacted here, since a change after signing would break the signature, and the
 * model id becomes the provider's.
 */
function canonicalMiddleware(provider: MappedProvider, secrets: Array<string | undefined>): Middleware {
  return async (request, next) => {
    if (typeof request.body !== "string") return next(request);
    const body = redactJson(request.body, secrets);
    return next({ ...request, body: withProviderModel(body, provider) });
  };
}

/** The JSON body with its top-level `model` the provider's id; any other body as it is. */
function withProviderModel(body: string, provider: MappedProvider): string {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return body;
  }
  if (!json || typeof json !== "object" || typeof (json as { model?: unknown }).model !== "string") return body;
  const model = (json as { model: string }).model;
  const mapped = providerModelId(provider, model);
  return mapped === model ? body : JSON.stringify({ ...json, model: mapped });
}

/**
 * `fetch` for the model client: the one point every model request passes, whatever built it
 * (prompts, issue text, tool output, compaction summaries). Its JSON body is redacted of the
 * operator's secrets and of known token shapes before it leaves, so a secret that got into a
 * tool's output (a file, a command's output) never reaches the model provider.
 */
export function redactingFetch(secrets: Array<string | undefined>, base: typeof fetch = (...args) => fetch(...args)) {
  return (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (init && typeof init.body === "string") return base(input, { ...init, body: redactJson(init.body, secrets) });
    return base(input, init);
  };
}

/** `provider error: <status> <message>`: what the run reports when a request failed for good. */
export function describeProviderError(err: unknown): string {
  if (err instanceof ModelRetriesExhausted) {
    const last = describeProviderError(err.last);
    const attempts = `${err.attempts} attempt${err.attempts === 1 ? "" : "s"}`;
    return `${last} (still failing after ${attempts} over ${minutes(err.waitedMs)}; ${MODEL_RETRY_VARIABLE} is ${minutes(err.maxMs)})`;
  }
  if (err instanceof Anthropic.APIError) {
    const status = statusOf(err);
    const message = apiMessageOf(err) ?? err.message.replace(/^\d{3}\s+/, "");
    const text = message || err.type || "unknown error";
    return status !== undefined ? `provider error: ${status} ${text}` : `provider error: ${text}`;
  }
  const message = err instanceof Error ? err.message : String(err);
  return `provider error: ${message || "unknown error"}`;
}

/** `prompt is too long: N tokens > M maximum` (a 400 invalid_request_error): the API's own counts, if given. */
export function promptTooLong(err: unknown): { tokens: number; maximum?: number } | undefined {
  if (!(err instanceof Anthropic.APIError) || statusOf(err) !== 400) return undefined;
  const message = apiMessageOf(err) ?? err.message;
  if (!/prompt is too long/i.test(message)) return undefined;
  const counts = /(\d+)\s*tokens?\s*>\s*(\d+)/i.exec(message);
  // Without counts we know only that it is over: force compaction with a size no window holds.
  return counts ? { tokens: Number(counts[1]), maximum: Number(counts[2]) } : { tokens: Number.MAX_SAFE_INTEGER };
}
