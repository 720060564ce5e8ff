import { execFile } from "node:child_process";

/**
 * Config every git command of the app carries: the repository's hooks never run and no
 * fsmonitor program is started, whatever the repository's own config says.
 */
export const SAFE_GIT_CONFIG = ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false"];

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
}

export interface GitOptions {
  cwd: string;
  /** Bytes of stdout to accept; diffs can be large. */
  maxBuffer?: number;
}

/** Runs `git <args>` with the safe config; rejects with git's stderr on a non-zero exit. */
export function git(args: string[], { cwd, maxBuffer = 64 * 1024 * 1024 }: GitOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      [...SAFE_GIT_CONFIG, ...args],
      { cwd, env: gitEnv(), maxBuffer, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (error) {
          const detail = (stderr || error.message).trim().split("\n").slice(-3).join(" ");
          reject(new GitError(`git ${args[0]} failed: ${detail}`));
        } else {
          resolve(stdout);
        }
      },
    );
  });
}
