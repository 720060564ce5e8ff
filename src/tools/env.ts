import type { ToolContext } from "./types.js";

/** Fixed PATH for commands: system directories only, never the app's own PATH. */
export const SAFE_PATH = "/usr/local/bin:/usr/bin:/bin";

const VALID_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The whole environment of a command, built from scratch so no app secret (tokens, the
 * API key, the private key path) can leak in. The operator's allowlist is added, but it
 * cannot replace the fixed keys: HOME must stay the scratch dir and PATH the safe one.
 */
export function buildEnv(ctx: Pick<ToolContext, "scratchDir" | "envAllowlist">): Record<string, string> {
  const fixed: Record<string, string> = {
    PATH: SAFE_PATH,
    HOME: ctx.scratchDir,
    LANG: "C.UTF-8",
    PAGER: "cat",
    GIT_PAGER: "cat",
    GIT_TERMINAL_PROMPT: "0",
    CI: "1",
    // Colour codes are noise (and tokens) for a model.
    NO_COLOR: "1",
    TERM: "dumb",
  };
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(ctx.envAllowlist)) {
    if (VALID_NAME.test(key) && !value.includes("\0")) env[key] = value;
  }
  return { ...env, ...fixed };
}
