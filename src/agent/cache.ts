/**
 * Prompt-caching breakpoints. The API caches the prefix up to each `cache_control` marker, at
 * most 4 per request, and a marker finds an earlier entry only within about 20 blocks before
 * it. We place four: the tool list, the system prompt, the previous request's newest message
 * (where that request wrote its entry) and the newest message. A turn with many parallel tool
 * calls adds more than 20 blocks (the reply's tool_use blocks plus as many results), so the
 * newest marker alone would miss the previous entry; the marker on the previous turn reads it
 * exactly, and the newest one writes the next. Older messages carry no marker.
 */
import type Anthropic from "@anthropic-ai/sdk";

type MessageParam = Anthropic.MessageParam;
type TextBlockParam = Anthropic.TextBlockParam;
type ToolParam = Anthropic.Tool;

export const EPHEMERAL: Anthropic.CacheControlEphemeral = Object.freeze({ type: "ephemeral" });

export interface CacheableRequest {
  system: TextBlockParam[];
  tools: ToolParam[];
  messages: MessageParam[];
}

function withoutMarker<T extends object>(block: T): T {
  if (!("cache_control" in block)) return block;
  const { cache_control: _dropped, ...rest } = block as T & { cache_control?: unknown };
  return rest as T;
}

function markLast<T extends object>(items: T[]): T[] {
  return items.map((item, i) => (i === items.length - 1 ? { ...withoutMarker(item), cache_control: EPHEMERAL } : withoutMarker(item)));
}

/** A message with no marker anywhere (a string content stays a string). */
function unmarked(message: MessageParam): MessageParam {
  if (typeof message.content === "string") return message;
  return { ...message, content: message.content.map((block) => withoutMarker(block)) } as MessageParam;
}

/** The API refuses cache_control on thinking blocks. */
const markable = (block: Anthropic.ContentBlockParam) => block.type !== "thinking" && block.type !== "redacted_thinking";

/** A message with its last markable block marked (a string content becomes one text block). */
function marked(message: MessageParam): MessageParam {
  const blocks = (typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content) as Anthropic.ContentBlockParam[];
  let at = -1;
  blocks.forEach((block, i) => (at = markable(block) ? i : at));
  const content = blocks.map((block, i) => (i === at ? { ...withoutMarker(block), cache_control: EPHEMERAL } : withoutMarker(block)));
  return { ...message, content } as MessageParam;
}

/**
 * Copies the request with the breakpoints. Pure: inputs are not mutated, so the loop can keep
 * one system/tools value per run and the bytes sent stay identical every turn. The previous
 * request ended two messages earlier (our reply and the tool results came since).
 */
export function withCacheBreakpoints(request: CacheableRequest): CacheableRequest {
  const last = request.messages.length - 1;
  const previous = last - 2;
  return {
    system: markLast(request.system),
    tools: markLast(request.tools),
    messages: request.messages.map((message, i) => (i === last || i === previous ? marked(message) : unmarked(message))),
  };
}
