/** Token shapes that never belong in anything crewbot posts, logs or shows. */
const TOKEN_PATTERNS: RegExp[] = [
  /\bgh[pousr]_[A-Za-z0-9]{20,255}\b/g, // GitHub PATs, OAuth, user-to-server, installation, refresh
  /\bgithub_pat_[A-Za-z0-9_]{20,255}\b/g, // fine-grained PATs
  /\bsk-ant-[A-Za-z0-9_-]{10,}/g, // Anthropic keys (api, admin, oauth)
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, // PEM keys (the app's)
];

export const REDACTED = "[redacted]";

/**
 * Replaces known token shapes and the given literal secrets (installation tokens, the webhook
 * secret, the API key…) — the literal list catches secrets of no recognisable shape.
 */
export function redact(text: string, secrets: Iterable<string | undefined> = []): string {
  let out = text;
  for (const secret of secrets) {
    // Very short values would blank out ordinary words; real secrets are long.
    if (secret && secret.length >= 8) out = out.split(secret).join(REDACTED);
  }
  for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
  return out;
}

/** The operator's own secrets from the environment, for `redact`. */
export function secretsFromEnv(env: NodeJS.ProcessEnv): string[] {
  const names = ["WEBHOOK_SECRET", "PRIVATE_KEY", "ANTHROPIC_API_KEY", "GITHUB_CLIENT_SECRET"];
  return names.map((name) => env[name]).filter((value): value is string => Boolean(value));
}
