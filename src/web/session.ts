/**
 * Signed cookies: `<base64url payload>.<base64url HMAC-SHA256>`. The session holds the user's
 * GitHub token encrypted (AES-256-GCM), so it is neither readable in the cookie nor forgeable.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const SESSION_COOKIE = "crewbot_session";
export const STATE_COOKIE = "crewbot_oauth";
/** GitHub App user tokens live 8 hours; the session no longer. */
export const SESSION_MAX_AGE_S = 8 * 60 * 60;
export const STATE_MAX_AGE_S = 10 * 60;

export interface Session {
  login: string;
  id: number;
  /** The user's GitHub token: never in a page or a log. */
  token: string;
  /** Expiry, epoch seconds. */
  exp: number;
}

/** `CREWBOT_SESSION_SECRET`, else derived from `WEBHOOK_SECRET`, else random (sessions end with the process). */
export function sessionSecret(env: NodeJS.ProcessEnv): Buffer {
  if (env.CREWBOT_SESSION_SECRET) return Buffer.from(env.CREWBOT_SESSION_SECRET);
  if (env.WEBHOOK_SECRET) return createHmac("sha256", env.WEBHOOK_SECRET).update("crewbot transcript sessions").digest();
  return randomBytes(32);
}

export class CookieSigner {
  private readonly signKey: Buffer;
  private readonly encKey: Buffer;

  constructor(secret: Buffer | string, private readonly now: () => number = Date.now) {
    this.signKey = createHmac("sha256", secret).update("sign").digest();
    this.encKey = createHmac("sha256", secret).update("encrypt").digest();
  }

  sign(value: unknown): string {
    const payload = Buffer.from(JSON.stringify(value)).toString("base64url");
    return `${payload}.${this.mac(payload)}`;
  }

  /** The value when the signature holds, else undefined. */
  verify<T>(cookie: string | undefined): T | undefined {
    if (!cookie) return undefined;
    const dot = cookie.lastIndexOf(".");
    if (dot <= 0) return undefined;
    const payload = cookie.slice(0, dot);
    const given = Buffer.from(cookie.slice(dot + 1), "base64url");
    const expected = Buffer.from(this.mac(payload), "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as T;
    } catch {
      return undefined;
    }
  }

  sealSession(session: Session): string {
    return this.sign({ l: session.login, i: session.id, t: this.encrypt(session.token), e: session.exp });
  }

  openSession(cookie: string | undefined): Session | undefined {
    const raw = this.verify<{ l?: unknown; i?: unknown; t?: unknown; e?: unknown }>(cookie);
    if (!raw || typeof raw.l !== "string" || typeof raw.i !== "number" || typeof raw.t !== "string" || typeof raw.e !== "number") return undefined;
    if (raw.e * 1000 <= this.now()) return undefined;
    const token = this.decrypt(raw.t);
    if (token === undefined) return undefined;
    return { login: raw.l, id: raw.i, token, exp: raw.e };
  }

  private mac(payload: string): string {
    return createHmac("sha256", this.signKey).update(payload).digest("base64url");
  }

  private encrypt(text: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.encKey, iv);
    const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
  }

  private decrypt(sealed: string): string | undefined {
    try {
      const raw = Buffer.from(sealed, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", this.encKey, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    } catch {
      return undefined;
    }
  }
}

/** Constant-time comparison of two strings (the OAuth `state`). */
export function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    try {
      out[name] = decodeURIComponent(value);
    } catch {
      out[name] = value;
    }
  }
  return out;
}

export function setCookie(name: string, value: string, options: { maxAge: number; secure: boolean }): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, "Path=/", "HttpOnly", "SameSite=Lax", `Max-Age=${options.maxAge}`];
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

/** Where a refused `next` lands: the job list, crewbot's own page. */
export const NEXT_FALLBACK = "/jobs";
/** Resolved against this to see where a browser would go; never contacted. */
const DUMMY_ORIGIN = "https://crewbot.invalid";
/** Browsers read `\` as `/` and drop tabs and newlines, so `/\evil` and `/<tab>/evil` are `//evil` to them. */
const UNSAFE_CHARS = /[\u0000-\u001f\u007f\\]/;

/** The path a browser would go to on this origin, as WHATWG URL parsing sees it; undefined for anything else. */
function sameOriginPath(candidate: string): string | undefined {
  if (!candidate.startsWith("/") || candidate.startsWith("//") || UNSAFE_CHARS.test(candidate)) return undefined;
  let url: URL;
  try {
    url = new URL(candidate, DUMMY_ORIGIN);
  } catch {
    return undefined;
  }
  if (url.origin !== DUMMY_ORIGIN) return undefined;
  const path = url.pathname + url.search + url.hash;
  return path.startsWith("//") ? undefined : path; // `/.//evil` normalises to `//evil`
}

/**
 * Only a path on this host (`/jobs/…`), as a browser parses it: never another origin (`//evil`,
 * `/\evil`, `/<tab>/evil`, `https:`, `javascript:`), nor one once its percent-escapes are decoded
 * (`/%2F/evil`, `/%5Cevil`, `/%09/evil`). Anything refused lands on the job list.
 */
export function safeNext(next: string | null | undefined): string {
  if (!next) return NEXT_FALLBACK;
  let decoded: string;
  try {
    decoded = decodeURIComponent(next);
  } catch {
    return NEXT_FALLBACK;
  }
  const path = sameOriginPath(next);
  return path !== undefined && sameOriginPath(decoded) !== undefined ? path : NEXT_FALLBACK;
}
