import { getPrivateKey } from "@probot/get-private-key";

/** Token shapes that never belong in anything crewbot posts, logs or shows. */
const TOKEN_PATTERNS: RegExp[] = [
  /\bgh[pousr]_[A-Za-z0-9]{20,255}\b/g, // GitHub PATs, OAuth, user-to-server, installation, refresh
  /\bgithub_pat_[A-Za-z0-9_]{20,255}\b/g, // fine-grained PATs
  /\bsk-ant-[A-Za-z0-9_-]{10,}/g, // Anthropic keys (api, admin, oauth)
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, // AWS access key ids
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, // Slack tokens
  /\bglpat-[A-Za-z0-9_-]{20,}/g, // GitLab PATs
  /\bnpm_[A-Za-z0-9]{36}\b/g, // npm tokens
  /(?<=\b(?:Basic|Bearer) )[A-Za-z0-9+/_.-]{16,}={0,2}/g, // credentials of an Authorization header, quoted in an error
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, // PEM keys (the app's)
];

export const REDACTED = "[redacted]";

/** Shorter literal values would blank out ordinary words; real secrets are long. */
const MIN_SECRET_CHARS = 8;

const base64 = (text: string) => Buffer.from(text).toString("base64");

/**
 * Every form in which a literal secret could turn up: itself; base64 of it and of git's
 * `x-access-token:<token>` (an `Authorization: Basic` header quoted in an error); and, for a
 * multi-line secret (a PEM key), each of its long lines — a key printed with other line ends, or
 * in part, is still the key.
 */
export function secretForms(secret: string): string[] {
  if (secret.length < MIN_SECRET_CHARS) return [];
  const forms = [secret, base64(secret), base64(`x-access-token:${secret}`)];
  if (/[\r\n]/.test(secret)) forms.push(...secret.split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length >= 16));
  // Longest first: a whole secret goes before the lines it contains.
  return forms.sort((a, b) => b.length - a.length);
}

/**
 * Replaces known token shapes and the given literal secrets (installation tokens, the webhook
 * secret, the API key…) — the literal list catches secrets of no recognisable shape.
 */
export function redact(text: string, secrets: Iterable<string | undefined> = []): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of secretForms(secret)) out = out.split(form).join(REDACTED);
  }
  for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
  return out;
}

/**
 * `redact` through a value of any shape (log fields, error objects): strings are redacted, arrays
 * and plain objects copied with their values redacted, an Error becomes `{ type, message, stack }`
 * and its own fields (what pino's error serializer prints), redacted. Cycles and depth are cut.
 */
export function redactValue(value: unknown, secrets: Iterable<string | undefined> = [], depth = 0): unknown {
  const list = Array.isArray(secrets) ? secrets : [...secrets];
  if (typeof value === "string") return redact(value, list);
  if (value === null || typeof value !== "object") return value;
  if (depth > 8) return "[deep]";
  if (value instanceof Error) {
    // Of the same class (pino prints its name as `type`), with its own fields redacted.
    const copy = Object.assign(Object.create(Object.getPrototypeOf(value)) as Error, redactValue({ ...value }, list, depth + 1));
    Object.defineProperty(copy, "message", { value: redact(value.message, list), enumerable: false, writable: true, configurable: true });
    Object.defineProperty(copy, "stack", { value: value.stack && redact(value.stack, list), enumerable: false, writable: true, configurable: true });
    if (value.cause !== undefined) copy.cause = redactValue(value.cause, list, depth + 1);
    return copy;
  }
  if (Array.isArray(value)) return value.map((v) => redactValue(v, list, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
    // A class instance (a Date, a Buffer, a URL): as its text, redacted.
    return redact(String(value), list);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v, list, depth + 1)]));
}

/** A PEM key inside JSON text: base64 and escaped line ends only, so it never runs past a quote. */
const JSON_PEM = /-----BEGIN [A-Z ]*PRIVATE KEY-----(?:[A-Za-z0-9+/=\s]|\\[nr])*(?:-----END [A-Z ]*PRIVATE KEY-----)?/g;

/**
 * `redact` on serialised JSON (a request body), keeping it valid JSON: each literal secret is
 * looked for as it is escaped inside a JSON string, and token shapes (JSON-safe characters only).
 */
export function redactJson(json: string, secrets: Iterable<string | undefined> = []): string {
  let out = json;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of secretForms(secret)) out = out.split(JSON.stringify(form).slice(1, -1)).join(REDACTED);
  }
  for (const pattern of TOKEN_PATTERNS.slice(0, -1)) out = out.replace(pattern, REDACTED);
  return out.replace(JSON_PEM, REDACTED);
}

const LEVELS = new Set(["trace", "debug", "info", "warn", "error", "fatal"]);

/**
 * A logger (pino, Probot's `app.log`) whose every line is redacted before it is written: the
 * message, every field, errors (message and stack), and the same for its `child` loggers. All
 * else (level, bindings, flush) is the wrapped logger's own.
 */
export function redactingLogger<T extends object>(log: T, secrets: () => Iterable<string | undefined>): T {
  return new Proxy(log, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      if (typeof prop === "string" && LEVELS.has(prop)) {
        return (...args: unknown[]) => {
          const list = [...secrets()];
          return value.apply(target, args.map((arg) => redactValue(arg, list)));
        };
      }
      if (prop === "child") return (...args: unknown[]) => redactingLogger(value.apply(target, args) as object, secrets);
      return value.bind(target);
    },
  });
}

/**
 * The operator's own secrets from the environment, for `redact`: also the app's private key as
 * Probot reads it (from `PRIVATE_KEY_PATH`, or `PRIVATE_KEY` with escaped line ends).
 */
export function secretsFromEnv(env: NodeJS.ProcessEnv): string[] {
  const names = [
    "WEBHOOK_SECRET",
    "PRIVATE_KEY",
    "ANTHROPIC_API_KEY",
    "GITHUB_CLIENT_SECRET",
    "CREWBOT_NPM_TOKEN",
    // The model providers' own keys (agent/providers.ts), when the operator gives them in the environment.
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_BEARER_TOKEN_BEDROCK",
    "ANTHROPIC_FOUNDRY_API_KEY",
    "AZURE_CLIENT_SECRET",
  ];
  const values = names.map((name) => env[name]);
  if (env.PRIVATE_KEY || env.PRIVATE_KEY_PATH) {
    try {
      values.push(getPrivateKey({ env }) ?? undefined);
    } catch {
      // an unreadable key file: Probot will say so
    }
  }
  return [...new Set(values.filter((value): value is string => Boolean(value)))];
}
