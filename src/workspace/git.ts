import { execFile } from "node:child_process";
import { authHeader } from "../secrets/git-credentials.js";
import { redact } from "../secrets/redact.js";

/**
 * Config every git command of the app carries: the repository's hooks never run and no
 * fsmonitor program is started, whatever the repository's own config says.
 */
export const SAFE_GIT_CONFIG = ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false"];

/**
 * Config of the app's own repositories (mirrors, job checkouts): no submodule is ever followed
 * (a repository must not make us fetch elsewhere), no credential helper is asked or told
 * anything, and automatic gc runs inside the command (under our lock) instead of detaching.
 */
export const WORKSPACE_GIT_CONFIG = [
  ...["-c", "credential.helper=", "-c", "submodule.recurse=false", "-c", "fetch.recurseSubmodules=false"],
  ...["-c", "gc.autoDetach=false", "-c", "maintenance.autoDetach=false", "-c", "core.askPass="],
];

/** Network commands may use http(s) only: no file://, ssh or `ext::` a URL or submodule could name. */
export const REMOTE_PROTOCOLS = ["protocol.allow=never", "protocol.https.allow=always", "protocol.http.allow=always"];
/** Commands between our own local repositories (mirror → checkout) use local paths only. */
export const LOCAL_PROTOCOLS = ["protocol.allow=never", "protocol.file.allow=always"];

/** git's environment: nothing of the app's (no tokens, keys or secrets), never a prompt. */
export function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: process.env.HOME ?? "/",
    LANG: "C.UTF-8",
    GIT_TERMINAL_PROMPT: "0",
    GIT_PAGER: "cat",
  };
  return env;
}

export class GitError extends Error {
  override name = "GitError";
  /** git's stderr (token redacted), for callers that tell failures apart. */
  stderr = "";
}

export interface GitOptions {
  cwd: string;
  /** Bytes of stdout to accept; diffs can be large. */
  maxBuffer?: number;
  /**
   * An installation token for this one command. It reaches git as `http.extraHeader` through
   * the process environment (GIT_CONFIG_COUNT/KEY/VALUE): not in argv (visible in `ps`), not in
   * any config file, never in a URL. Implies `workspace`.
   */
  token?: string;
  /** The app's own repositories: WORKSPACE_GIT_CONFIG, and the operator's global/system git config ignored. */
  workspace?: boolean;
  /** More `key=value` settings for this one command (e.g. REMOTE_PROTOCOLS). */
  config?: string[];
  /** Kill git after this long (network commands must not hang a job forever). */
  timeoutMs?: number;
}

function buildEnv(opts: GitOptions): NodeJS.ProcessEnv {
  const env = gitEnv();
  if (opts.workspace || opts.token !== undefined) {
    // An operator's ~/.gitconfig could rewrite URLs (insteadOf), add headers or a template dir with hooks.
    env.GIT_CONFIG_NOSYSTEM = "1";
    env.GIT_CONFIG_GLOBAL = "/dev/null";
  }
  if (opts.token !== undefined) {
    // A CR/LF would let a "token" inject more headers.
    if (!/^[\x21-\x7e]+$/.test(opts.token)) throw new GitError("git: refusing an empty token or one with whitespace or control characters");
    env.GIT_CONFIG_COUNT = "1";
    env.GIT_CONFIG_KEY_0 = "http.extraHeader";
    env.GIT_CONFIG_VALUE_0 = authHeader(opts.token);
  }
  return env;
}

function buildArgs(args: string[], opts: GitOptions): string[] {
  const extra = opts.workspace || opts.token !== undefined ? [...WORKSPACE_GIT_CONFIG] : [];
  // The header would follow a redirect to whatever host it names; GitHub's clone URLs need none.
  if (opts.token !== undefined) extra.push("-c", "http.followRedirects=false");
  for (const setting of opts.config ?? []) extra.push("-c", setting);
  return [...SAFE_GIT_CONFIG, ...extra, ...args];
}

function run(args: string[], opts: GitOptions, encoding: "utf8" | "buffer"): Promise<string | Buffer> {
  const { cwd, maxBuffer = 64 * 1024 * 1024, timeoutMs, token } = opts;
  return new Promise((resolve, reject) => {
    let env: NodeJS.ProcessEnv;
    try {
      env = buildEnv(opts);
    } catch (error) {
      reject(error);
      return;
    }
    execFile(
      "git",
      buildArgs(args, opts),
      { cwd, env, maxBuffer, encoding, timeout: timeoutMs ?? 0, killSignal: "SIGKILL" },
      (error, stdout, stderr) => {
        if (error) {
          const text = redact(String(stderr ?? "").trim(), [token]);
          const timedOut = timeoutMs !== undefined && error.killed;
          const detail = timedOut
            ? `timed out after ${Math.round(timeoutMs / 1000)} s`
            : (text || redact(error.message, [token])).split("\n").slice(-3).join(" ");
          const failure = new GitError(`git ${args[0]} failed: ${detail}`);
          failure.stderr = text;
          reject(failure);
        } else {
          resolve(stdout);
        }
      },
    );
  });
}

/** Runs `git <args>` with the safe config; rejects with git's stderr on a non-zero exit. */
export function git(args: string[], opts: GitOptions): Promise<string> {
  return run(args, opts, "utf8") as Promise<string>;
}

/** As `git`, for output that is not text (blobs). */
export function gitBuffer(args: string[], opts: GitOptions): Promise<Buffer> {
  return run(args, opts, "buffer") as Promise<Buffer>;
}
