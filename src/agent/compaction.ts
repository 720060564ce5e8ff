/**
 * Context management, the pure parts. A long run outgrows the model's window; we first stub old
 * tool outputs (cheap, usually enough: outputs dominate), and only then summarise older turns
 * with the model. Every function here is pure, so the rules are table-tested without a model.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { Usage } from "./pricing.js";

type MessageParam = Anthropic.MessageParam;
type Block = Anthropic.ContentBlockParam;

/** Turns (assistant message + the user message after it) whose tool outputs are never pruned. */
export const KEEP_RECENT_TURNS = 2;

/** Rough token count (chars / 4) of anything JSON-serialisable; only compared with itself and limits. */
export function estimateTokens(value: unknown): number {
  const text = typeof value === "string" ? value : JSON.stringify(value ?? "");
  return Math.ceil(text.length / 4);
}

/** The context a reply saw plus what it added: the size of the next request before new input. */
export function contextTokens(usage: Usage): number {
  return usage.input + usage.cacheRead + usage.cacheWrite + usage.output;
}

const blocksOf = (message: MessageParam): Block[] =>
  typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;

function formatSize(chars: number): string {
  return chars >= 1024 ? `${Math.round(chars / 1024)} KB` : `${chars} B`;
}

function resultText(block: Anthropic.ToolResultBlockParam): string {
  if (typeof block.content === "string") return block.content;
  return (block.content ?? []).map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("\n");
}

export const PRUNED_PREFIX = "[output pruned:";

/** Indices of assistant messages, oldest first: each starts a turn. */
function turnStarts(messages: MessageParam[]): number[] {
  return messages.flatMap((message, i) => (message.role === "assistant" ? [i] : []));
}

/**
 * Replaces tool_result contents older than the last `keepTurns` turns with a one-line stub
 * naming the call (`[output pruned: read src/a.ts, 12 KB]`). The tool_use/tool_result pairing
 * is untouched, so the API still accepts the conversation. Outputs already stubbed, or shorter
 * than their stub, are left alone.
 */
export function pruneToolOutputs(
  messages: MessageParam[],
  options: { keepTurns?: number; describe: (tool: string, input: unknown) => string },
): { messages: MessageParam[]; pruned: number } {
  const starts = turnStarts(messages);
  const keepTurns = options.keepTurns ?? KEEP_RECENT_TURNS;
  // Messages from here on belong to the protected recent turns; with too few turns, nothing is pruned.
  const keepFrom = starts.length > keepTurns ? starts[starts.length - keepTurns]! : 0;
  const calls = new Map<string, { name: string; input: unknown }>();
  let pruned = 0;
  const out = messages.map((message, i) => {
    const blocks = blocksOf(message);
    if (message.role === "assistant") {
      for (const b of blocks) if (b.type === "tool_use") calls.set(b.id, { name: b.name, input: b.input });
      return message;
    }
    if (i >= keepFrom || !blocks.some((b) => b.type === "tool_result")) return message;
    const content = blocks.map((block): Block => {
      if (block.type !== "tool_result") return block;
      const text = resultText(block);
      if (text.startsWith(PRUNED_PREFIX)) return block;
      const call = calls.get(block.tool_use_id);
      const what = call ? `${call.name} ${options.describe(call.name, call.input)}`.trim() : "tool";
      const stub = `${PRUNED_PREFIX} ${what}, ${formatSize(text.length)}]`;
      if (stub.length >= text.length) return block;
      pruned += 1;
      return { ...block, content: stub };
    });
    return { ...message, content } as MessageParam;
  });
  return { messages: pruned > 0 ? out : messages, pruned };
}

/**
 * Where to cut for a summary: the index of an assistant message, so a tool_use and its
 * tool_result (always the next message) stay on the same side. Keeps up to `keepTurns` recent
 * turns, fewer when they alone exceed `maxRecentTokens`, but always the newest turn. Undefined
 * when there is no whole turn before the newest kept one to summarise.
 */
export function findCut(messages: MessageParam[], options: { keepTurns?: number; maxRecentTokens: number }): number | undefined {
  // messages[0] is the prompt and messages[1] the first assistant turn: a cut at 1 summarises nothing.
  const starts = turnStarts(messages).filter((i) => i >= 3);
  if (starts.length === 0) return undefined;
  const candidates = starts.slice(-(options.keepTurns ?? KEEP_RECENT_TURNS));
  const fits = candidates.find((i) => estimateTokens(messages.slice(i)) <= options.maxRecentTokens);
  return fits ?? candidates[candidates.length - 1];
}

const TOOL_RESULT_CHARS = 2000;

/** Plain-text transcript of turns for the summary request (which has no tools, so no tool blocks). */
export function renderTranscript(messages: MessageParam[], maxChars: number): string {
  const lines: string[] = [];
  for (const message of messages) {
    for (const block of blocksOf(message)) {
      if (block.type === "text") lines.push(`${message.role.toUpperCase()}: ${block.text}`);
      else if (block.type === "tool_use") lines.push(`TOOL CALL ${block.name} ${JSON.stringify(block.input)}`);
      else if (block.type === "tool_result") {
        const text = resultText(block);
        const shown = text.length > TOOL_RESULT_CHARS ? `${text.slice(0, TOOL_RESULT_CHARS)}… [${text.length - TOOL_RESULT_CHARS} more chars]` : text;
        lines.push(`TOOL RESULT${block.is_error ? " (error)" : ""}: ${shown}`);
      }
    }
  }
  const transcript = lines.join("\n\n");
  // The newest turns matter most; drop from the start if the summary request would not fit.
  return transcript.length > maxChars ? `[earlier turns omitted]\n…${transcript.slice(-maxChars)}` : transcript;
}

export const SUMMARY_SYSTEM =
  "You write hand-over notes for a coding agent whose conversation is being shortened to fit its context window. " +
  "The agent will continue from your notes alone, so keep every fact it needs and nothing else.";

export function summaryPrompt(transcript: string, previousSummary: string | undefined): string {
  return [
    "Summarise the agent's work below so it can continue the same task.",
    "Cover: what was established about the code (paths, names, behaviour, errors seen), decisions taken and why, what is done, and what remains to do next.",
    "Be concise and factual; do not invent anything. Do not list the files read or modified: that list is added separately.",
    previousSummary ? `\n<earlier-summary>\n${previousSummary}\n</earlier-summary>` : "",
    `\n<transcript>\n${transcript}\n</transcript>`,
  ].join("\n");
}

/**
 * The conversation after a summary: the original prompt with the summary and file lists in the
 * first user message, then the recent turns verbatim (they start with an assistant message, so
 * roles still alternate). The file lists come from the tool calls, not from the model.
 */
export function compactedMessages(input: {
  prompt: string;
  summary: string;
  filesRead: string[];
  filesChanged: string[];
  recent: MessageParam[];
}): MessageParam[] {
  const list = (files: string[]) => (files.length > 0 ? files.map((f) => `- ${f}`).join("\n") : "(none)");
  const text = [
    input.prompt,
    "",
    "<summary-of-earlier-work>",
    "Earlier turns of this conversation were summarised to save context:",
    input.summary.trim() || "(the summary came back empty)",
    "</summary-of-earlier-work>",
    "",
    `Files read so far:\n${list(input.filesRead)}`,
    "",
    `Files modified so far:\n${list(input.filesChanged)}`,
  ].join("\n");
  return [{ role: "user", content: [{ type: "text", text }] }, ...input.recent];
}
