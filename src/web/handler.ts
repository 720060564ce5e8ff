/**
 * The transcript pages on the app's own server (Probot's `addHandler`), plain node:http:
 * `/jobs`, `/jobs/<id>`, `/jobs/<id>/events` (server-sent events), `/jobs/<id>/artifacts/<name>`
 * and `/jobs/<id>/artifacts/local/<path>` (the scratch space),
 * the insights `/insights` and `/insights/<owner>/<repo>`,
 * and the GitHub sign-in `/auth/login`, `/auth/callback`, `/auth/logout`. A visitor without a
 * session is sent to sign in; a job or a repository's figures are shown only to someone GitHub
 * lets read the repository — anyone else gets 404. This file routes; the sign-in is
 * `auth-routes.ts`, the pages `job-pages.ts` and `insights-pages.ts`, the live stream
 * `live-events.ts`, who may see a job `job-access.ts`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { SCRATCH_FOLDER } from "./artifacts.js";
import { callback, login, logout } from "./auth-routes.js";
import { esc } from "./html.js";
import { insights } from "./insights-pages.js";
import { artifact, jobPage, list } from "./job-pages.js";
import { events } from "./live-events.js";
import { HttpError, page, send, webContext, type WebContext, type WebOptions } from "./web-context.js";

export type { WebOptions } from "./web-context.js";

export interface WebHandler {
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Ends the live streams (server shutdown). */
  close(): void;
}

const JOB_ID = /^[A-Za-z0-9._-]{1,100}$/;

export function createWebHandler(options: WebOptions): WebHandler {
  const ctx = webContext(options);
  return {
    handle: (req, res) => handle(ctx, req, res),
    close() {
      for (const res of ctx.streams) res.end();
      ctx.streams.clear();
    },
  };
}

async function handle(ctx: WebContext, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const url = new URL(req.url ?? "/", "http://localhost");
  const route = url.pathname;
  const ours = route === "/jobs" || route.startsWith("/jobs/") || route === "/insights" || route.startsWith("/insights/") || route.startsWith("/auth/");
  if (!ours) return false;
  if (req.method !== "GET" && req.method !== "HEAD" && !(req.method === "POST" && route === "/auth/logout")) {
    send(res, 405, page("Not allowed", "<p>Method not allowed.</p>"));
    return true;
  }
  try {
    return await dispatch(ctx, req, url, res);
  } catch (err) {
    if (res.headersSent) {
      res.end();
      return true;
    }
    const status = err instanceof HttpError ? err.status : 500;
    if (!(err instanceof HttpError)) ctx.options.log?.warn(`transcript page ${route}: ${(err as Error).message}`);
    const message = err instanceof HttpError ? err.message : "Something went wrong.";
    send(res, status, page(status === 404 ? "Not found" : "Error", `<h1>${esc(status)}</h1><p>${esc(message)}</p>`));
    return true;
  }
}

/** Which route answers the request; anything else under `/jobs/` is 404. */
async function dispatch(ctx: WebContext, req: IncomingMessage, url: URL, res: ServerResponse): Promise<true> {
  const route = url.pathname;
  if (route === "/auth/login") return login(ctx, url, res);
  if (route === "/auth/callback") return await callback(ctx, req, url, res);
  if (route === "/auth/logout") return logout(ctx, res);
  const parts = route.split("/").slice(2).map(decodeSafe);
  if (route === "/insights" || route.startsWith("/insights/")) return await insights(ctx, req, url, res, parts);
  if (parts.length === 0 || (parts.length === 1 && parts[0] === "")) return await list(ctx, req, url, res);
  const [id, sub, name, ...rest] = parts;
  if (!id || !JOB_ID.test(id) || (rest.length > 0 && !(sub === "artifacts" && name === SCRATCH_FOLDER))) throw new HttpError(404, "Not found");
  if (sub === undefined) return await jobPage(ctx, req, url, res, id);
  if (sub === "events" && name === undefined) return await events(ctx, req, url, res, id);
  if (sub === "artifacts" && name !== undefined) return await artifact(ctx, req, url, res, id, [name, ...rest]);
  throw new HttpError(404, "Not found");
}

function decodeSafe(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return "\0";
  }
}
