/**
 * The GitHub sign-in: `/auth/login` (to GitHub with a signed state), `/auth/callback` (the code
 * exchanged for the visitor's token, sealed in the session cookie), `/auth/logout`.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  parseCookies,
  safeNext,
  sameString,
  SESSION_COOKIE,
  SESSION_MAX_AGE_S,
  setCookie,
  STATE_COOKIE,
  STATE_MAX_AGE_S,
  type Session,
} from "./session.js";
import { HttpError, page, send, type WebContext } from "./web-context.js";

export function sessionOf(ctx: WebContext, req: IncomingMessage): Session | undefined {
  return ctx.signer.openSession(parseCookies(req.headers.cookie)[SESSION_COOKIE]);
}

/** Sends a visitor without a session to sign in, coming back to where they were. */
export function toLogin(url: URL, res: ServerResponse): true {
  res.writeHead(302, { location: `/auth/login?next=${encodeURIComponent(url.pathname + url.search)}`, "cache-control": "no-store" });
  res.end();
  return true;
}

export function login(ctx: WebContext, url: URL, res: ServerResponse): true {
  const { github, signer, secure } = ctx;
  if (!github.configured) throw new HttpError(503, "Sign-in with GitHub is not configured (GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET).");
  const state = randomBytes(24).toString("base64url");
  const cookie = signer.sign({ s: state, n: safeNext(url.searchParams.get("next")), e: ctx.now() + STATE_MAX_AGE_S * 1000 });
  res.writeHead(302, {
    location: github.authorizeUrl(state, ctx.redirectUri),
    "set-cookie": setCookie(STATE_COOKIE, cookie, { maxAge: STATE_MAX_AGE_S, secure }),
    "cache-control": "no-store",
  });
  res.end();
  return true;
}

export async function callback(ctx: WebContext, req: IncomingMessage, url: URL, res: ServerResponse): Promise<true> {
  const { github, signer, secure, now } = ctx;
  const saved = signer.verify<{ s?: unknown; n?: unknown; e?: unknown }>(parseCookies(req.headers.cookie)[STATE_COOKIE]);
  const state = url.searchParams.get("state") ?? "";
  const code = url.searchParams.get("code") ?? "";
  if (!saved || typeof saved.s !== "string" || typeof saved.e !== "number" || saved.e <= now() || !state || !sameString(saved.s, state)) {
    throw new HttpError(400, "The sign-in could not be verified (state mismatch or expired). Please try again.");
  }
  if (!code) throw new HttpError(400, "GitHub sent no authorization code.");
  let token: string;
  let user: { login: string; id: number };
  try {
    token = await github.exchange(code, ctx.redirectUri);
    user = await github.user(token);
  } catch (err) {
    throw new HttpError(502, ctx.clean((err as Error).message));
  }
  const session: Session = { login: user.login, id: user.id, token, exp: Math.floor(now() / 1000) + SESSION_MAX_AGE_S };
  res.writeHead(302, {
    location: safeNext(typeof saved.n === "string" ? saved.n : undefined),
    "set-cookie": [
      setCookie(SESSION_COOKIE, signer.sealSession(session), { maxAge: SESSION_MAX_AGE_S, secure }),
      setCookie(STATE_COOKIE, "", { maxAge: 0, secure }),
    ],
    "cache-control": "no-store",
  });
  res.end();
  return true;
}

export function logout(ctx: WebContext, res: ServerResponse): true {
  res.setHeader("set-cookie", setCookie(SESSION_COOKIE, "", { maxAge: 0, secure: ctx.secure }));
  send(res, 200, page("Signed out", `<p>Signed out. <a href="/auth/login?next=%2Fjobs">Sign in again</a></p>`));
  return true;
}
