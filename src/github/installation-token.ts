/**
 * Installation tokens by their `expires_at`. GitHub's live an hour, and Probot caches one for 59
 * minutes, so "the cached token" may have a minute left: a token with less than RENEW_BEFORE_MS
 * to go is replaced before it is handed out (a push at the end of a long job, a slow clone).
 */

/** Less than this left and a token is replaced before it is used. */
export const RENEW_BEFORE_MS = 10 * 60_000;

export interface InstallationToken {
  token: string;
  /** Epoch ms; undefined when GitHub's answer had no `expires_at` (then the token is used as it is). */
  expiresAt?: number;
}

/** What this needs of an installation Octokit: its auth strategy (`@octokit/auth-app`'s, through Probot). */
export interface InstallationAuth {
  auth(options: { type: "installation"; refresh?: boolean }): Promise<unknown>;
}

export interface TokenOptions {
  /** A new token even if the current one looks valid: GitHub refused it (401), so it was revoked. */
  renew?: boolean;
  now?: () => number;
}

/**
 * The installation's token for git: the cached one while it has RENEW_BEFORE_MS or more left,
 * else (or with `renew`) a newly minted one — `refresh: true`, which also replaces the cached
 * token, so the installation's later API requests use the new one too.
 */
export async function installationToken(octokit: InstallationAuth, { renew = false, now = Date.now }: TokenOptions = {}): Promise<InstallationToken> {
  if (!renew) {
    const cached = await mint(octokit, false);
    if (!expiresSoon(cached, now())) return cached;
  }
  return mint(octokit, true);
}

async function mint(octokit: InstallationAuth, refresh: boolean): Promise<InstallationToken> {
  try {
    return tokenOf(await octokit.auth(refresh ? { type: "installation", refresh: true } : { type: "installation" }));
  } catch (error) {
    throw mintRefused(error);
  }
}

/** GitHub's refusal to mint, with what it means for an operator (the status is kept). */
function mintRefused(error: unknown): unknown {
  const e = error as { status?: number; message?: string };
  const why =
    e.status === 404 ? "the app is no longer installed there (or the installation id is wrong)"
    : e.status === 403 ? "the installation is suspended"
    : e.status === 401 ? "the app's own credentials were refused (check APP_ID and the private key)"
    : undefined;
  if (why && typeof e.message === "string") e.message = `GitHub would not mint an installation token (${e.status}): ${why} (${e.message})`;
  return error;
}

/** Pure: whether a token must be replaced before it is used at `now`. */
export function expiresSoon(token: InstallationToken, now: number): boolean {
  return token.expiresAt !== undefined && token.expiresAt - now < RENEW_BEFORE_MS;
}

function tokenOf(auth: unknown): InstallationToken {
  const { token, expiresAt } = (auth ?? {}) as { token?: unknown; expiresAt?: unknown };
  if (typeof token !== "string" || !token) throw new Error("GitHub gave no installation token");
  const at = typeof expiresAt === "string" ? Date.parse(expiresAt) : Number.NaN;
  return Number.isFinite(at) ? { token, expiresAt: at } : { token };
}
