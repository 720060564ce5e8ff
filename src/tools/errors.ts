import { ToolError, type ToolContext, type ToolResult } from "./types.js";

/**
 * File-system failures (ENOENT, EACCES, EISDIR, …) are the model's problem to react to, not
 * crashes: they become ToolErrors. Anything else (a bug) is rethrown as is.
 */
export function withToolErrors<I>(run: (input: I, ctx: ToolContext) => Promise<ToolResult>): (input: I, ctx: ToolContext) => Promise<ToolResult> {
  return async (input, ctx) => {
    try {
      return await run(input, ctx);
    } catch (err) {
      if (err instanceof ToolError) throw err;
      const code = (err as NodeJS.ErrnoException | undefined)?.code;
      if (typeof code === "string" && /^E[A-Z]+$/.test(code)) throw new ToolError((err as Error).message);
      throw err;
    }
  };
}
