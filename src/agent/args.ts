/**
 * One-line summaries of tool arguments, for `tool_start` events and pruned-output stubs. The
 * chain runner passes the tools' own `summarizeArgs` (src/tools/index.ts) through
 * `RunAgentOptions.summarizeArgs`; this fallback, for the loop used on its own, only needs to be
 * short and never throw.
 */
import { oneLine } from "../tools/index.js";

export type ArgsSummarizer = (tool: string, input: unknown) => string;

/** Keys whose value says most about a call, in order of preference. */
const TELLING_KEYS = ["command", "pattern", "path", "query", "url"];

export const defaultSummarizeArgs: ArgsSummarizer = (_tool, input) => {
  if (input === null || typeof input !== "object") return oneLine(String(input ?? ""));
  const record = input as Record<string, unknown>;
  const key = TELLING_KEYS.find((k) => typeof record[k] === "string");
  if (key) return oneLine(record[key] as string);
  try {
    return oneLine(JSON.stringify(input));
  } catch {
    return "(unprintable arguments)";
  }
};

/** Never lets a broken summarizer crash a run: it only feeds events. */
export function safeSummary(summarize: ArgsSummarizer, tool: string, input: unknown): string {
  try {
    return oneLine(summarize(tool, input));
  } catch {
    return defaultSummarizeArgs(tool, input);
  }
}
