/**
 * GitHub for the transcript pages, as the signed-in user: the OAuth web flow on the same host as the
 * API (`GHE_HOST` when set), the user, and whether they can read a repository (asked with their
 * token, remembered ~60 s per user and repository).
 */
import { apiBaseUrl, webBaseUrl } from "../github/octokit.js";

export interface GitHubUser {
  login: string;
  id: number;
}

export interface RepoAccess {
  read: boolean;
  private?: boolean;
}

export interface GitHubWebOptions {
  env: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
  cacheMs?: number;
  now?: () => number;
}

/** `https://github.com`, or `<GHE_PROTOCOL>://<GHE_HOST>`: the host every other GitHub request of crewbot uses. */
export const oauthBaseOf = webBaseUrl;

/** `https://api.github.com`, or `<GHE_PROTOCOL>://<GHE_HOST>/api/v3`. */
export const apiBaseOf = apiBaseUrl;

const MAX_CACHED = 10_000;
/** Pages of 100 read of the user's installations, and of each one's repositories: what one list may cost. */
const MAX_INSTALLATION_PAGES = 3;
const MAX_REPOSITORY_PAGES = 10;

export class GitHubWeb {
  readonly oauthBase: string;
  readonly apiBase: string;
  readonly clientId: string | undefined;
  private readonly clientSecret: string | undefined;
  private readonly fetch: typeof fetch;
  private readonly cacheMs: number;
  private readonly now: () => number;
  private readonly cache = new Map<string, { value: Promise<RepoAccess>; until: number }>();
  private readonly reposCache = new Map<number, { value: Promise<Set<string>>; until: number }>();

  constructor(options: GitHubWebOptions) {
    this.oauthBase = oauthBaseOf(options.env);
    this.apiBase = apiBaseOf(options.env);
    this.clientId = options.env.GITHUB_CLIENT_ID || undefined;
    this.clientSecret = options.env.GITHUB_CLIENT_SECRET || undefined;
    this.fetch = options.fetch ?? globalThis.fetch;
    this.cacheMs = options.cacheMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  get configured(): boolean {
    return Boolean(this.clientId && this.clientSecret);
  }

  authorizeUrl(state: string, redirectUri: string): string {
    const params = new URLSearchParams({ client_id: this.clientId ?? "", redirect_uri: redirectUri, state, allow_signup: "false" });
    return `${this.oauthBase}/login/oauth/authorize?${params}`;
  }

  /** The user's token for an authorization code; throws with a plain reason. */
  async exchange(code: string, redirectUri: string): Promise<string> {
    const res = await this.fetch(`${this.oauthBase}/login/oauth/access_token`, {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: this.clientId ?? "", client_secret: this.clientSecret ?? "", code, redirect_uri: redirectUri }),
    });
    const body = (await res.json().catch(() => ({}))) as { access_token?: unknown; error?: unknown };
    if (!res.ok || typeof body.access_token !== "string" || !body.access_token) {
      throw new Error(`GitHub refused the sign-in (${typeof body.error === "string" ? body.error : res.status})`);
    }
    return body.access_token;
  }

  async user(token: string): Promise<GitHubUser> {
    const res = await this.api("/user", token);
    if (!res.ok) throw new Error(`GitHub did not say who signed in (${res.status})`);
    const body = (await res.json()) as { login?: unknown; id?: unknown };
    if (typeof body.login !== "string" || typeof body.id !== "number") throw new Error("GitHub did not say who signed in");
    return { login: body.login, id: body.id };
  }

  /** 200 → can read; 404/403 (or anything else) → cannot. Remembered briefly per user and repository. */
  canRead(user: GitHubUser, token: string | undefined, owner: string, repo: string): Promise<RepoAccess> {
    const key = `${user.id}:${owner.toLowerCase()}/${repo.toLowerCase()}`;
    const now = this.now();
    const hit = this.cache.get(key);
    if (hit && hit.until > now) return hit.value;
    if (this.cache.size >= MAX_CACHED) {
      for (const [k, v] of this.cache) if (v.until <= now) this.cache.delete(k);
      if (this.cache.size >= MAX_CACHED) this.cache.clear();
    }
    const value = this.ask(token, owner, repo);
    this.cache.set(key, { value, until: now + this.cacheMs });
    // A failed request is not remembered.
    value.catch(() => this.cache.delete(key));
    return value;
  }

  private async ask(token: string | undefined, owner: string, repo: string): Promise<RepoAccess> {
    const res = await this.api(`/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`, token);
    if (res.status !== 200) {
      await res.body?.cancel().catch(() => undefined);
      if (res.status >= 500) throw new Error(`GitHub answered ${res.status}`);
      return { read: false };
    }
    const body = (await res.json().catch(() => ({}))) as { private?: unknown };
    return { read: true, private: body.private === true };
  }

  /**
   * The repositories (`owner/repo`, lower-cased) the user reaches through the app's installations:
   * GitHub's list for a user's token of the app (`/user/installations/{id}/repositories`), read in
   * pages up to a bound, remembered briefly per user. Throws when GitHub does not give it (a token
   * of another kind of OAuth client): the caller asks per repository instead.
   */
  installationRepositories(user: GitHubUser, token: string): Promise<Set<string>> {
    const now = this.now();
    const hit = this.reposCache.get(user.id);
    if (hit && hit.until > now) return hit.value;
    if (this.reposCache.size >= MAX_CACHED) this.reposCache.clear();
    const value = this.readInstallationRepositories(token);
    this.reposCache.set(user.id, { value, until: now + this.cacheMs });
    value.catch(() => this.reposCache.delete(user.id));
    return value;
  }

  private async readInstallationRepositories(token: string): Promise<Set<string>> {
    const names = new Set<string>();
    const installations = await this.pages<{ id: number }>("/user/installations", token, "installations", MAX_INSTALLATION_PAGES);
    for (const { id } of installations) {
      if (!Number.isSafeInteger(id)) continue;
      const repos = await this.pages<{ full_name: string }>(`/user/installations/${id}/repositories`, token, "repositories", MAX_REPOSITORY_PAGES);
      for (const repo of repos) if (typeof repo.full_name === "string") names.add(repo.full_name.toLowerCase());
    }
    return names;
  }

  /** A listing's items, page by page of 100 until a short page or `max` pages. */
  private async pages<T>(route: string, token: string, field: string, max: number): Promise<T[]> {
    const items: T[] = [];
    for (let page = 1; page <= max; page++) {
      const res = await this.api(`${route}?per_page=100&page=${page}`, token);
      if (res.status !== 200) {
        await res.body?.cancel().catch(() => undefined);
        throw new Error(`GitHub answered ${res.status} for ${route}`);
      }
      const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      const got = Array.isArray(body[field]) ? (body[field] as T[]) : [];
      items.push(...got);
      if (got.length < 100) break;
    }
    return items;
  }

  /** Whether GitHub shows the repository to anyone, asked without a token; remembered briefly. */
  isPublic(owner: string, repo: string): Promise<boolean> {
    return this.canRead({ login: "", id: 0 }, undefined, owner, repo).then((access) => access.read && access.private === false);
  }

  private api(route: string, token: string | undefined): Promise<Response> {
    return this.fetch(`${this.apiBase}${route}`, {
      headers: {
        accept: "application/vnd.github+json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        "user-agent": "crewbot-transcripts",
        "x-github-api-version": "2022-11-28",
      },
    });
  }
}
