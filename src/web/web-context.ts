/**
 * What every route of the transcript pages shares: the options, the clock, GitHub, the cookie
 * signer, the open live streams, and the one way to answer with a page or an error.
 */
import type { InsightsSource } from "../insights/types.js";
import type { ServerResponse } from "node:http";
import type { JobQueue } from "../queue/job-queue.js";
import { redact } from "../secrets/redact.js";
import type { TranscriptStore } from "../transcripts/types.js";
import { GitHubWeb } from "./github.js";
import { layout } from "./html.js";
import { CookieSigner, sessionSecret } from "./session.js";

export interface WebOptions {
  env: NodeJS.ProcessEnv;
  /** `CREWBOT_PUBLIC_URL`: the OAuth `redirect_uri` is `<publicUrl>/auth/callback`. */
  publicUrl: string;
  queue: Pick<JobQueue, "get" | "listRecent">;
  store: TranscriptStore;
  dataDir: string;
  /** The operator's secrets: redacted from everything shown. */
  secrets: string[];
  /** With Redis: brings a job's files (written by whichever worker) into `dataDir` before they are listed or served. */
  jobFiles?: { fetch(jobId: string): Promise<unknown> };
  log?: { warn(message: string): void };
  github?: GitHubWeb;
  /** How often a live page's stream looks for new entries (ms). */
  pollMs?: number;
  now?: () => number;
  /** The repositories' figures, for the `/insights` page. */
  insights?: InsightsSource;
}

export interface WebContext {
  options: WebOptions;
  now: () => number;
  github: GitHubWeb;
  signer: CookieSigner;
  /** Cookies are `Secure` when the public URL is https. */
  secure: boolean;
  redirectUri: string;
  pollMs: number;
  /** The live pages' open event streams, ended on shutdown. */
  streams: Set<ServerResponse>;
  /** The text with the operator's secrets redacted. */
  clean(text: string | undefined): string;
}

export function webContext(options: WebOptions): WebContext {
  const now = options.now ?? Date.now;
  const publicUrl = options.publicUrl.replace(/\/+$/, "");
  return {
    options,
    now,
    github: options.github ?? new GitHubWeb({ env: options.env }),
    signer: new CookieSigner(sessionSecret(options.env), now),
    secure: publicUrl.startsWith("https:"),
    redirectUri: `${publicUrl}/auth/callback`,
    pollMs: options.pollMs ?? 500,
    streams: new Set<ServerResponse>(),
    clean: (text) => redact(text ?? "", options.secrets),
  };
}

/** A route's answer other than its page: the status and the message shown. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function page(title: string, body: string, extra: { user?: string; script?: string; nonce?: string } = {}): string {
  return layout({ title, body, ...extra });
}

export function send(res: ServerResponse, status: number, html: string, nonce?: string): void {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "private, no-store",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'${nonce ? `; script-src 'nonce-${nonce}'` : ""}`,
  });
  res.end(html);
}
